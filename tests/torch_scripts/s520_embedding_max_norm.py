import torch
import torch.nn as nn
import torch.nn.functional as F

emb = nn.Embedding(6, 3, max_norm=1.0, padding_idx=0)
with torch.no_grad():
    emb.weight.copy_(torch.arange(18, dtype=torch.float64).view(6, 3) / 4)
print(emb)
idx = torch.tensor([[1, 2], [0, 5]])
out = emb(idx)
print(out.shape)
print(emb.weight.norm(dim=1).round(decimals=4))  # rows looked up were renormalised in place
print(emb.weight[3])
loss = out.sum()
loss.backward()
print(emb.weight.grad)
e2 = nn.Embedding.from_pretrained(torch.eye(4) * 3, freeze=True)
print(e2.weight.requires_grad, e2(torch.tensor([2])))
e3 = nn.Embedding.from_pretrained(torch.eye(4) * 3, freeze=False, max_norm=2.0, norm_type=1.0)
print(e3(torch.tensor([1, 1])), e3.weight[1])
w = torch.arange(12.0).view(4, 3)
print(F.embedding(torch.tensor([3, 0]), w, max_norm=5.0))
print(w[3])
e4 = nn.Embedding(5, 2, scale_grad_by_freq=True)
with torch.no_grad():
    e4.weight.fill_(1.0)
e4(torch.tensor([1, 1, 1, 2])).sum().backward()
print(e4.weight.grad)
bag = nn.EmbeddingBag(5, 2, mode="max")
with torch.no_grad():
    bag.weight.copy_(torch.arange(10.0).view(5, 2) * torch.tensor([1.0, -1.0]))
print(bag(torch.tensor([0, 2, 4, 1]), torch.tensor([0, 3])))
