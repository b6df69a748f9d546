# nn.Embedding as users use it: from_pretrained (freeze), padding_idx gradients zero, lookups
# of 2-d index batches, max_norm renorm in place, F.embedding functional call
import torch
import torch.nn as nn
import torch.nn.functional as F

W = torch.arange(12.0).view(4, 3) / 10
emb = nn.Embedding.from_pretrained(W)
print(emb.weight.requires_grad, emb(torch.tensor([[0, 3], [1, 1]])))
emb2 = nn.Embedding.from_pretrained(W, freeze=False, padding_idx=0)
out = emb2(torch.tensor([0, 2, 0, 1]))
out.sum().backward()
print(emb2.weight.grad, emb2)
e = nn.Embedding(5, 2, padding_idx=1)
print(e.weight[1], e.padding_idx, e.num_embeddings, e.embedding_dim)
big = nn.Embedding.from_pretrained(torch.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]]), max_norm=1.0)
print(big(torch.tensor([0, 1])), big.weight)
print(F.embedding(torch.tensor([2, 0]), W), F.embedding(torch.tensor([1]), W, padding_idx=1).shape)
try:
    emb(torch.tensor([4]))
except IndexError as e:
    print("IndexError", str(e)[:20])
print(nn.Embedding(3, 2, _weight=torch.ones(3, 2)).weight.sum(), nn.Embedding(10, 4, sparse=True))
