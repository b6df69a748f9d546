# clamping and extremes: clamp with tensor bounds, minimum/maximum ties, fmin/fmax with nan
import torch

x = torch.tensor([-2.0, 0.5, 1.0, 3.0], requires_grad=True)
lo = torch.tensor([-1.0, 0.5, 0.0, 0.0], requires_grad=True)
hi = torch.tensor([1.0, 1.0, 1.0, 2.0], requires_grad=True)
y = torch.clamp(x, lo, hi)
y.sum().backward()
print(y, x.grad, lo.grad, hi.grad, y.grad_fn.name())
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([1.0, 5.0, 0.0], requires_grad=True)
m = torch.maximum(a, b)
m.sum().backward()
print(m, a.grad, b.grad)
n = torch.tensor([float("nan"), 1.0, 2.0])
print(torch.fmax(n, torch.tensor([0.0, float("nan"), 3.0])), torch.maximum(n, torch.ones(3)))
print(torch.clamp(torch.tensor([1, 5, 9]), min=3, max=7), torch.clamp(n, max=1.5))
print(torch.clamp(torch.tensor([1.0, 2.0]), min=torch.tensor(1.5)), x.detach().clip(0, 1))
try:
    torch.clamp(x)
except RuntimeError as e:
    print(e)
c = torch.tensor([0.0, 2.0], requires_grad=True)
torch.clamp(c, min=0.0, max=2.0).sum().backward()
print(c.grad)
