# cummax/cummin with ties (index of the last occurrence), logcumsumexp, and their gradients
import torch

x = torch.tensor([1.0, 3.0, 2.0, 3.0, 0.0, 5.0])
print(torch.cummax(x, dim=0))
print(torch.cummin(x, dim=0))
m = torch.tensor([[2.0, 1.0, 1.0], [0.0, 4.0, 4.0]])
print(m.cummax(1), m.cummin(dim=0).indices)
print(torch.logcumsumexp(torch.tensor([0.0, 1.0, 2.0]), dim=0).round(decimals=6))
print(torch.logcumsumexp(torch.tensor([-float("inf"), 0.0, 1000.0]), 0))
w = torch.tensor([1.0, 3.0, 2.0, 3.0], requires_grad=True)
w.cummax(0).values.sum().backward()
print(w.grad)
u = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
torch.logcumsumexp(u, 0).sum().backward()
print(u.grad.round(decimals=6))
print(torch.cummax(torch.tensor([1, 1, 0, 2]), 0).indices, torch.cumsum(torch.tensor([True, True, False]), 0))
