# cumulative ops: cumsum, cumprod with zeros, cummax/cummin indices, logcumsumexp gradients
import torch

x = torch.tensor([2.0, 0.0, 3.0, -1.0], requires_grad=True)
for name in ["cumsum", "cumprod", "logcumsumexp"]:
    y = getattr(torch, name)(x, 0)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(name, y.detach(), g, y.grad_fn.name())
v, i = torch.cummax(x, 0)
print(v, i, v.grad_fn.name())
(g,) = torch.autograd.grad(v.sum(), x)
print(g)
v2, i2 = x.cummin(0)
print(v2.detach(), i2)
M = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
c = M.cumprod(1)
c.sum().backward()
print(c, M.grad)
print(torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int32), 0).dtype)
print(torch.cumsum(torch.tensor([True, True]), 0), torch.cumsum(torch.ones(2), 0, dtype=torch.float32))
print(torch.diff(torch.tensor([1.0, 4.0, 9.0, 16.0]), n=2), torch.diff(torch.tensor([1, 3]), prepend=torch.tensor([0])))
