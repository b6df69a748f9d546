# A custom Function whose backward is itself differentiable (written with torch ops), used
# for a second derivative; and a once-differentiable one refusing double backward
import torch
from torch.autograd.function import once_differentiable


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
print(g, gg)


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        r, = ctx.saved_tensors
        return g * r


z = torch.tensor([0.0, 1.0], requires_grad=True)
out = Exp.apply(z).sum()
(gz,) = torch.autograd.grad(out, z, create_graph=True)
print(gz, gz.requires_grad)
try:
    gz.sum().backward()
except RuntimeError as e:
    print(str(e)[:80])
print(torch.autograd.gradcheck(Cube.apply, (torch.tensor([0.3, -0.7], requires_grad=True),)))
print(torch.autograd.gradgradcheck(Cube.apply, (torch.tensor([0.3, -0.7], requires_grad=True),)))
