import torch
import torch.nn.functional as F

x = torch.tensor([[1000.0, 1000.5, 999.0], [-1000.0, -999.0, -1001.0], [0.0, 0.0, 0.0]], requires_grad=True)
naive = torch.log(torch.exp(x).sum(-1))
print(naive.detach())
lse = torch.logsumexp(x, dim=-1)
print(lse.detach().round(decimals=6))
lse.sum().backward()
print(x.grad.round(decimals=6))
ls = F.log_softmax(x, dim=-1)
manual = x - lse[:, None]
print(torch.allclose(ls, manual), ls.detach().round(decimals=5))
print(torch.logsumexp(torch.tensor([-float("inf"), -float("inf")]), 0))
print(torch.logsumexp(torch.tensor([float("inf"), 1.0]), 0))
y = torch.tensor([[0.5, -0.5], [2.0, 1.0]], requires_grad=True)
k = torch.logsumexp(y, dim=(0, 1), keepdim=True)
print(k.shape, k.detach().round(decimals=6))
t = torch.logaddexp(torch.tensor([800.0, -5.0]), torch.tensor([800.0, 3.0]))
print(t.round(decimals=6), torch.logaddexp2(torch.tensor(3.0), torch.tensor(3.0)))
sm = torch.softmax(torch.tensor([1e4, 0.0, -1e4]), 0)
print(sm, F.softmin(torch.tensor([1.0, 2.0]), 0).round(decimals=6))
print(torch.special.log_softmax(torch.tensor([1.0, 2.0, 3.0]), 0).round(decimals=6))
