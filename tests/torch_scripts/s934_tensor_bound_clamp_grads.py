# clamp_min / clamp_max, torch.maximum/minimum as tensor-bound clamps, and their gradients on ties
import torch

x = torch.tensor([-1.0, 0.0, 1.0, 2.0], requires_grad=True)
lo = torch.tensor([0.0, 0.0, 0.0, 0.0], requires_grad=True)
y = torch.maximum(x, lo)
y.sum().backward()
print(y, x.grad, lo.grad)
x.grad = None
torch.clamp_min(x, 0.5).sum().backward()
print(x.grad)
x.grad = None
torch.clamp_max(x, torch.tensor(1.0)).sum().backward()
print(x.grad)
x.grad = None
torch.clamp(x, min=0.0, max=1.0).sum().backward()
print(x.grad)
print(torch.clamp(torch.tensor([float("nan"), 5.0]), 0.0, 1.0))
print(torch.clamp(torch.tensor([1.0, 2.0]), min=torch.tensor([float("nan"), 0.0])))
