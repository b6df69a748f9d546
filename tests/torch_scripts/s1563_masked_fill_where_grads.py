# masks: masked_fill, masked_scatter, masked_select and where, values and gradients
import torch

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
mask = x.detach() < 0
y = x.masked_fill(mask, 0.0)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
x.grad = None
s = x.masked_select(mask)
print(s, s.grad_fn.name())
(s * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
x.grad = None
src = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
ms = x.masked_scatter(mask, src)
ms.sum().backward()
print(ms, x.grad, src.grad)
w = torch.where(mask, x * 2, x.exp())
print(w.grad_fn.name())
x.grad = None
w.sum().backward()
print(x.grad)
print(torch.where(mask))
print(x.detach().masked_fill(torch.tensor([True, False, True]), float("nan")))
try:
    x.masked_fill(torch.tensor([1, 0, 1]), 0.0)
except RuntimeError as e:
    print(e)
