# masked assignment inside autograd: out-of-place masked_fill, torch.where, and in-place on a clone
import torch

x = torch.tensor([1.0, -2.0, 3.0, -4.0], requires_grad=True)
y = x.clone()
y[y < 0] = 0.0
y.sum().backward()
print(y, x.grad)
x.grad = None
z = x.masked_fill(x > 2, 10.0)
(z * z).sum().backward()
print(z, x.grad)
x.grad = None
m = torch.tensor([True, False, True, False])
w = x.clone()
w[m] = w[m] * 3
w.sum().backward()
print(x.grad, w.grad_fn is not None)
v = torch.zeros(4)
v[m] = torch.tensor([7.0, 8.0])
print(v, torch.masked_select(x.detach(), ~m))
try:
    v[m] = torch.tensor([1.0, 2.0, 3.0])
except RuntimeError as e:
    print(e)
