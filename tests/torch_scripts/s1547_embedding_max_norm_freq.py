# Embedding: max_norm renormalises rows in place, padding_idx rows get no gradient,
# scale_grad_by_freq divides by counts
import torch
import torch.nn as nn
import torch.nn.functional as F

w = torch.tensor([[3.0, 4.0], [0.3, 0.4], [1.0, 1.0], [6.0, 8.0]])
emb = nn.Embedding.from_pretrained(w.clone(), freeze=False, max_norm=1.0)
idx = torch.tensor([0, 1, 0, 3])
out = emb(idx)
print(out)
print(emb.weight.data)
print(emb.weight._version > 0)
out.sum().backward()
print(emb.weight.grad)
e2 = nn.Embedding(4, 2, padding_idx=2, scale_grad_by_freq=True)
with torch.no_grad():
    e2.weight.copy_(w)
print(e2, e2.weight[2])
y = e2(torch.tensor([[2, 1, 1], [0, 1, 2]]))
y.sum().backward()
print(e2.weight.grad)
W = w.clone().requires_grad_()
z = F.embedding(torch.tensor([1, 3]), W, max_norm=2.0, norm_type=1.0)
print(z, W.detach())
print(nn.Embedding(3, 2, max_norm=1.5, sparse=False))
try:
    nn.Embedding(3, 2, padding_idx=5)
except AssertionError as e:
    print("AssertionError", e)
