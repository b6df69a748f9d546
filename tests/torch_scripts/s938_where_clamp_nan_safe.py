# the "double where" trick so gradients stay finite (sqrt and log at zero)
import torch

x = torch.tensor([0.0, 4.0, -1.0], requires_grad=True)
bad = torch.where(x > 0, torch.sqrt(x), torch.zeros_like(x))
bad.sum().backward()
print(x.grad)
x.grad = None
safe_x = torch.where(x > 0, x, torch.ones_like(x))
good = torch.where(x > 0, torch.sqrt(safe_x), 0.0)
good.sum().backward()
print(good, x.grad)
x.grad = None
p = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)
ent = -torch.where(p > 0, p * torch.log(torch.where(p > 0, p, 1.0)), 0.0).sum()
ent.backward()
print(ent.round(decimals=6), p.grad.round(decimals=6))
print(torch.xlogy(torch.tensor([0.0, 0.5]), torch.tensor([0.0, 0.5])).round(decimals=6))
