# pow gradients at 0 for various exponents, tensor exponent, and 0 ** 0
import torch

x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
for p in [0.0, 0.5, 1.0, 2.0, 3.0, -1.0]:
    x.grad = None
    x.pow(p).sum().backward()
    print(p, x.pow(p).detach(), x.grad)
e = torch.tensor([0.0, 2.0, 0.5], requires_grad=True)
b = torch.tensor([0.0, 3.0, 4.0], requires_grad=True)
(b ** e).sum().backward()
print(b.grad, e.grad)
print(torch.pow(2, torch.tensor([1.0, 3.0])), torch.tensor([4.0]) ** -0.5)
