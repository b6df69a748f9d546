# gradients of cumprod/prod with zeros, cumsum reversed, sort and cummax
import torch

for vals in ([2.0, 0.0, 3.0, 4.0], [0.0, 2.0, 0.0, 5.0], [1.0, 2.0, 3.0, 0.0]):
    x = torch.tensor(vals, requires_grad=True)
    x.cumprod(0).sum().backward()
    print(x.grad)
    x.grad = None
    x.prod().backward()
    print(x.grad)
m = torch.tensor([[1.0, 0.0], [3.0, 2.0]], requires_grad=True)
m.prod(1).sum().backward(); print(m.grad)
m.grad = None
m.cumprod(1).pow(2).sum().backward(); print(m.grad)
y = torch.tensor([3.0, 1.0, 2.0, 1.0], requires_grad=True)
s, idx = y.sort(descending=True, stable=True)
print(s, idx)
(s * torch.arange(1.0, 5.0)).sum().backward(); print(y.grad)
y.grad = None
y.flip(0).cumsum(0).flip(0).sum().backward(); print(y.grad)
y.grad = None
v, i = y.cummax(0)
print(v, i)
v.sum().backward(); print(y.grad)
