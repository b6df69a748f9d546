import torch
from torch.autograd.function import once_differentiable

class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x.exp()
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        out, = ctx.saved_tensors
        return g * out

x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = Exp.apply(x)
print(y.grad_fn.__class__.__name__.startswith("Exp") or "Backward" in type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad.round(decimals=6))
g, = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
g2, = torch.autograd.grad(g.sum(), x)
print(g2.round(decimals=6))

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * g

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad)
try:
    g.sum().backward()
    print("no error")
except RuntimeError as e:
    print("RuntimeError", "once_differentiable" in str(e) or "double backward" in str(e))

class ScaleBy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.mark_dirty(x)
        return x.mul_(k)

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.clone()
c = ScaleBy.apply(b, 4.0)
print(c is b, c)
c.sum().backward()
print(a.grad)
