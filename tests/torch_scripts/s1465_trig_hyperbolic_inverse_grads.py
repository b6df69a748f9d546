# inverse trig/hyperbolic gradients inside the domain and at its edges
import torch

x = torch.tensor([-1.0, -0.5, 0.0, 0.5, 1.0], requires_grad=True)
for name in ["asin", "acos", "atan", "asinh", "atanh", "tanh", "sinh", "cosh"]:
    x.grad = None
    y = getattr(torch, name)(x)
    y.sum().backward()
    print(name, y.detach(), x.grad)
z = torch.tensor([1.0, 2.0, 10.0], requires_grad=True)
torch.acosh(z).sum().backward()
print(z.grad)
a = torch.tensor([1.0, -1.0, 0.0, 0.0], requires_grad=True)
b = torch.tensor([1.0, 1.0, -1.0, 0.0], requires_grad=True)
torch.atan2(a, b).sum().backward()
print(a.grad, b.grad)
