# pow gradients at 0 and negative bases: x**2, x**0.5, 0**y, x**x, integer exponent tensors
import torch

x = torch.tensor([0.0, -2.0, 3.0], requires_grad=True)
(x ** 2).sum().backward(); print(x.grad); x.grad = None
(x ** 0).sum().backward(); print(x.grad); x.grad = None
(x ** 1).sum().backward(); print(x.grad); x.grad = None
(x ** 3.0).sum().backward(); print(x.grad); x.grad = None
(x.abs() ** 0.5).sum().backward(); print(x.grad); x.grad = None
y = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
(torch.tensor(0.0) ** y).sum().backward(); print(y.grad); y.grad = None
(torch.tensor(2.0) ** y).sum().backward(); print(y.grad); y.grad = None
p = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
(p ** p).sum().backward(); print(p.grad)
print(torch.tensor([-8.0]) ** (1 / 3), torch.pow(torch.tensor([2, 3]), 2), torch.tensor([4.0]).pow(torch.tensor([0.5])))
