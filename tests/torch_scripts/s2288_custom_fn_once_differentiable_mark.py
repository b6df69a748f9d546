import torch
from torch.autograd.function import once_differentiable


class ClampGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.lo, ctx.hi = lo, hi
        ctx.save_for_backward(x)
        return x.clamp(lo, hi)

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        mask = (x >= ctx.lo) & (x <= ctx.hi)
        return g * mask, None, None


x = torch.linspace(-2, 2, 5, requires_grad=True)
y = ClampGrad.apply(x, -1.0, 1.0)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
g, = torch.autograd.grad(ClampGrad.apply(x, -1.0, 1.0).sum(), x, create_graph=True)
print(g.requires_grad)
try:
    g.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0][:80])


class SortWithIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    def backward(ctx, gv, gi):
        idx, = ctx.saved_tensors
        out = torch.zeros_like(gv)
        out.scatter_(0, idx, gv)
        return out


z = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIdx.apply(z)
print(v, i, i.requires_grad, v.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(z.grad)


class Dirty(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return 2 * g


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.clone()
c = Dirty.apply(b)
print(c is b, c, c.grad_fn.name(), b._version)
c.sum().backward()
print(a.grad)
