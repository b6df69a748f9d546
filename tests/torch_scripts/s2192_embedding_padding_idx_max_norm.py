import torch
import torch.nn as nn
import torch.nn.functional as F

emb = nn.Embedding(6, 3, padding_idx=0)
print(emb.weight[0])
with torch.no_grad():
    emb.weight.copy_(torch.arange(18.0).view(6, 3) / 10)
tokens = torch.tensor([[0, 2, 2, 5], [1, 0, 0, 3]])
vecs = emb(tokens)
(vecs * torch.arange(1.0, 4.0)).sum().backward()
print(emb.weight.grad)
mask = (tokens != emb.padding_idx).unsqueeze(-1)
mean_pool = (vecs * mask).sum(1) / mask.sum(1)
print(mean_pool.detach().round(decimals=4))
neg = nn.Embedding(4, 2, padding_idx=-1)
print(neg.padding_idx, neg.weight[3])
clipped = nn.Embedding(4, 2, max_norm=1.0)
with torch.no_grad():
    clipped.weight.copy_(torch.tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 1.0], [0.0, 2.0]]))
out = clipped(torch.tensor([0, 2]))
print(out.round(decimals=4))
print(clipped.weight.norm(dim=1).round(decimals=4))
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), padding_idx=1)
print(pre.weight.requires_grad, pre(torch.tensor([1, 0, 1])))
tuned = nn.Embedding.from_pretrained(torch.eye(3), freeze=False, padding_idx=2)
tuned(torch.tensor([2, 1, 2])).sum().backward()
print(tuned.weight.grad)
w = torch.arange(8.0).view(4, 2).requires_grad_()
F.embedding(torch.tensor([3, 1, 3]), w, padding_idx=3).sum().backward()
print(w.grad)
sc = nn.Embedding(5, 2, scale_grad_by_freq=True)
sc(torch.tensor([1, 1, 1, 4])).sum().backward()
print(sc.weight.grad)
