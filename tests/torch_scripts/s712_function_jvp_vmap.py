import torch
from torch.func import jvp, vmap, grad


class Cube(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * t


x = torch.tensor([1.0, 2.0, -1.0])
print(Cube.apply(x))
print(jvp(Cube.apply, (x,), (torch.ones(3),)))
print(vmap(Cube.apply)(torch.arange(6.0).reshape(2, 3)))
print(grad(lambda v: Cube.apply(v).sum())(x))
print(vmap(grad(lambda v: Cube.apply(v).sum()))(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
xr = x.clone().requires_grad_()
Cube.apply(xr).sum().backward()
print(xr.grad)


class Pair(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, n):
        ctx.n = n
        return a * n, n + 1

    @staticmethod
    def backward(ctx, g, _):
        return g * ctx.n, None


a = torch.tensor([1.0, 2.0], requires_grad=True)
y, k = Pair.apply(a, 3)
print(y, k, type(k).__name__)
y.sum().backward()
print(a.grad)
