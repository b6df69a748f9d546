# clamp with tensor min/max, only min, only max, and gradients at the boundary
import torch

x = torch.tensor([-2.0, 0.5, 1.0, 3.0], requires_grad=True)
lo = torch.tensor([-1.0, 0.0, 1.0, 0.0], requires_grad=True)
hi = torch.tensor([1.0, 1.0, 2.0, 2.5], requires_grad=True)
y = torch.clamp(x, min=lo, max=hi)
print(y)
(y * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(x.grad, lo.grad, hi.grad)
print(x.clamp(min=0.0), x.clamp(max=torch.tensor(0.0)), x.clip(-1, 1))
x.grad = None
x.clamp(0.5, 1.0).sum().backward()
print(x.grad)
print(torch.clamp(torch.tensor([1, 5, 9]), 2, 6), torch.clamp(torch.tensor([1, 5]), min=2.5))
