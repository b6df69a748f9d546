import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class ClampWithMask(Function):
    @staticmethod
    def forward(x, lo, hi):
        mask = (x >= lo) & (x <= hi)
        return x.clamp(lo, hi), mask

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, lo, hi = inputs
        _, mask = output
        ctx.mark_non_differentiable(mask)
        ctx.save_for_backward(mask)

    @staticmethod
    def backward(ctx, g, g_mask):
        (mask,) = ctx.saved_tensors
        return g * mask, None, None


x = torch.tensor([-2.0, -0.5, 0.0, 0.7, 3.0], requires_grad=True)
y, m = ClampWithMask.apply(x, -1.0, 1.0)
print(y, m, m.requires_grad, type(y.grad_fn).__name__)
(y * torch.arange(5.0)).sum().backward()
print(x.grad)


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g  # differentiable: double backward works


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), x)
print(g, gg)


class Sq(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


x = torch.tensor([3.0], requires_grad=True)
(g,) = torch.autograd.grad(Sq.apply(x), x, create_graph=True)
print(g, g.requires_grad, type(g.grad_fn).__name__)
try:
    g.backward()
except RuntimeError as e:
    print("RuntimeError:", e)


class Scale(Function):
    @staticmethod
    def forward(ctx, x, k: float):
        ctx.k = k
        ctx.set_materialize_grads(False)
        return x * k, x + 1

    @staticmethod
    def backward(ctx, ga, gb):
        out = torch.zeros(()) if ga is None else ga * ctx.k
        if gb is not None:
            out = out + gb
        return out, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = Scale.apply(x, 4.0)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = Scale.apply(x, 4.0)
b.sum().backward()
print(x.grad)
print(torch.autograd.gradcheck(Cube.apply, (torch.tensor([0.5, -1.2], requires_grad=True),)))
print(torch.autograd.gradgradcheck(Cube.apply, (torch.tensor([0.5, -1.2], requires_grad=True),)))
