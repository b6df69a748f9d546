# pairwise ops: bilinear layer, cosine_similarity with eps, pairwise_distance, cdist p-norms
import torch
import torch.nn as nn
import torch.nn.functional as F

x1 = torch.tensor([[1.0, 0.0], [0.5, -1.0]], requires_grad=True)
x2 = torch.tensor([[0.0, 2.0, 1.0], [1.0, 1.0, 1.0]])
bil = nn.Bilinear(2, 3, 2)
with torch.no_grad():
    bil.weight.copy_(torch.arange(12.0).reshape(2, 2, 3) / 10)
    bil.bias.copy_(torch.tensor([0.1, -0.1]))
y = bil(x1, x2)
y.sum().backward()
print(y, x1.grad, bil.weight.grad[0])
a = torch.tensor([[1.0, 2.0], [0.0, 0.0]], requires_grad=True)
b = torch.tensor([[2.0, 4.0], [1.0, 0.0]])
c = F.cosine_similarity(a, b, dim=1)
c.sum().backward()
print(c, a.grad)
print(F.pairwise_distance(a.detach(), b, p=1.0, keepdim=True), F.pairwise_distance(a.detach(), b, eps=0.0))
for p in [0.0, 1.0, 2.0, 3.0, float("inf")]:
    print(p, torch.cdist(a.detach(), b, p=p))
d = torch.cdist(a, b)
d.sum().backward()
print(a.grad)
print(F.pdist(torch.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])))
