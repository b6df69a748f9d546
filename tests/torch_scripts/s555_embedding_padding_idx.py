import torch
import torch.nn as nn

emb = nn.Embedding(6, 3, padding_idx=0)
print(emb, emb.weight[0])
with torch.no_grad():
    emb.weight[1:] = torch.arange(15, dtype=torch.float64).reshape(5, 3) / 10
tokens = torch.tensor([[1, 2, 0, 0], [3, 4, 5, 0]])
e = emb(tokens)
print(e.shape, e[0, 2])
lengths = (tokens != 0).sum(dim=1)
mean = e.sum(1) / lengths.unsqueeze(1)
print(lengths, mean)
mean.sum().backward()
print(emb.weight.grad)
pre = torch.tensor([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
frozen = nn.Embedding.from_pretrained(pre, padding_idx=0)
print(frozen.weight.requires_grad, frozen.padding_idx, frozen(torch.tensor([2, 0, 1])))
trainable = nn.Embedding.from_pretrained(pre, freeze=False)
print(trainable.weight.requires_grad, trainable.num_embeddings, trainable.embedding_dim)
F = nn.functional
w = torch.arange(12, dtype=torch.float64).reshape(4, 3)
print(F.embedding(torch.tensor([[3, 1]]), w, padding_idx=1))
neg = nn.Embedding(5, 2, padding_idx=-1)
print(neg.padding_idx, neg.weight[4])
bag = nn.EmbeddingBag(6, 3, mode="sum", padding_idx=0)
with torch.no_grad():
    bag.weight.copy_(emb.weight)
print(bag(tokens), bag(tokens.flatten(), offsets=torch.tensor([0, 4])))
try:
    emb(torch.tensor([6]))
except IndexError as err:
    print("IndexError", err)
try:
    nn.Embedding(3, 2, padding_idx=3)
except AssertionError as err:
    print("AssertionError", err)
