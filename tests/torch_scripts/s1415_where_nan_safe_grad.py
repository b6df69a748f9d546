# the double-where trick for NaN-free gradients of sqrt/log at masked entries
import torch

x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
bad = torch.where(x > 0, x.sqrt(), torch.zeros_like(x))
bad.sum().backward()
print(bad, x.grad)
x.grad = None
safe_x = torch.where(x > 0, x, torch.ones_like(x))
good = torch.where(x > 0, safe_x.sqrt(), torch.zeros_like(x))
good.sum().backward()
print(good, x.grad)
x.grad = None
torch.where(x > 0, x.log(), x).sum().backward()
print(x.grad)
x.grad = None
y = x.clamp(min=1e-12)
(y.log() * (x > 0)).sum().backward()
print(x.grad)
