import torch
import torch.nn as nn
import torch.nn.functional as F

w = torch.arange(20, dtype=torch.float64).view(10, 2)
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
print(F.embedding_bag(inp, w, offsets, mode='sum'))
print(F.embedding_bag(inp, w, offsets, mode='mean'))
print(F.embedding_bag(inp, w, offsets, mode='max'))
print(F.embedding_bag(torch.tensor([[1, 2], [3, 4]]), w))
bag = nn.EmbeddingBag(10, 3, mode='sum')
print(bag, bag.weight.shape, bag(inp, offsets).shape)
psw = torch.tensor([1.0, 0.5, 2.0, 1.0, 1.0, 1.0, 1.0, 0.0])
print(F.embedding_bag(inp, w, offsets, mode='sum', per_sample_weights=psw))

print(F.one_hot(torch.tensor([0, 2, 1])))
print(F.one_hot(torch.tensor([[0, 1], [3, 2]]), num_classes=5).shape, F.one_hot(torch.tensor([1]), 3).dtype)
print(F.one_hot(torch.arange(0, 5) % 3, num_classes=4))

emb = nn.Embedding(5, 3, padding_idx=0)
print(emb.weight[0])
out = emb(torch.tensor([[0, 2, 0, 4]]))
out.sum().backward()
print(emb.weight.grad)
e2 = nn.Embedding.from_pretrained(torch.eye(3), freeze=True)
print(e2(torch.tensor([2, 0])), e2.weight.requires_grad)
e3 = nn.Embedding(6, 2, max_norm=1.0)
with torch.no_grad():
    e3.weight.mul_(10)
v = e3(torch.tensor([1, 3]))
print(v.norm(dim=1) <= 1.0 + 1e-6)
