import torch
import torch.nn.functional as F

a = torch.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]], requires_grad=True)
b = torch.tensor([[2.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 0.0, 1.0]], requires_grad=True)
d = torch.cdist(a, b)
print(d.round(decimals=5))
d.sum().backward()
print(a.grad.round(decimals=5), b.grad.round(decimals=5))
print(torch.cdist(a.detach(), b.detach(), p=1), torch.cdist(a.detach(), b.detach(), p=float("inf")))
a.grad = None
cs = F.cosine_similarity(a, b[:2], dim=1)
print(cs.round(decimals=5))
cs.sum().backward()
print(a.grad.round(decimals=5))
n = F.normalize(a.detach(), p=2, dim=1)
print(n.round(decimals=5), F.normalize(a.detach(), p=1, dim=0).round(decimals=5))
print(F.normalize(torch.zeros(2, 2), dim=1))
print(F.pairwise_distance(a.detach(), b[:2].detach()).round(decimals=5), F.pdist(b.detach()).round(decimals=5))
z = torch.zeros(3, requires_grad=True)
torch.linalg.vector_norm(z).backward()
print(z.grad)
z.grad = None
F.normalize(z.unsqueeze(0), dim=1).sum().backward()
print(z.grad)
x = torch.tensor([3.0, 4.0], requires_grad=True)
for p in [1, 2, 3, float("inf"), -float("inf"), 0.5]:
    (g,) = torch.autograd.grad(torch.linalg.vector_norm(x, ord=p), x)
    print(p, torch.linalg.vector_norm(x, ord=p).detach().round(decimals=5), g.round(decimals=5))
print(torch.norm(torch.arange(6.0).reshape(2, 3), dim=1), torch.norm(torch.arange(6.0).reshape(2, 3), p="fro"))
