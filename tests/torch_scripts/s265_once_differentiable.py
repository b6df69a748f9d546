import torch
from torch.autograd.function import once_differentiable


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
y = Cube.apply(x)
print(y, y.grad_fn.__class__.__name__)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad, type(g.grad_fn).__name__)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
x.grad = None
Cube.apply(x).sum().backward()
print(x.grad)
with torch.no_grad():
    print(Cube.apply(x))
