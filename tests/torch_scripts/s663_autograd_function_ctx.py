import torch
from torch.autograd.function import once_differentiable


class Clamp01(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi)

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        mask = (x >= ctx.lo) & (x <= ctx.hi)
        return g * mask, None, None


class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x * 2, x ** 2

    @staticmethod
    def backward(ctx, g1, g2):
        (x,) = ctx.saved_tensors
        out = torch.zeros_like(x)
        if g1 is not None:
            out = out + 2 * g1
        if g2 is not None:
            out = out + 2 * x * g2
        return out


x = torch.tensor([-0.5, 0.3, 0.9, 1.4], requires_grad=True)
y = Clamp01.apply(x, 0.0, 1.0)
print(y, y.grad_fn.__class__.__name__)
y.sum().backward()
print(x.grad)
x.grad = None
a, b = TwoOut.apply(x)
b.sum().backward()
print(x.grad)
x.grad = None
a, b = TwoOut.apply(x)
(a.sum() * 3).backward()
print(x.grad)
print(torch.autograd.gradcheck(TwoOut.apply, (torch.tensor([0.5, 1.5], requires_grad=True),)))
y2 = Clamp01.apply(x, 0.0, 1.0)
g, = torch.autograd.grad(y2.sum(), x, create_graph=True)
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError", "once_differentiable" in str(e) or "backward" in str(e))


class WithSetup(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


z = torch.tensor([1.0, 2.0], requires_grad=True)
WithSetup.apply(z, 4.0).sum().backward()
print(z.grad)
