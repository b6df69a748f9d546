import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Cube(Function):
    @staticmethod
    def forward(x, scale):
        return x ** 3 * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2 * ctx.scale, None


class SortWithIdx(Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort(descending=True)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, gv, gi):
        (idx,) = ctx.saved_tensors
        out = torch.zeros_like(gv)
        out.scatter_(0, idx, gv)
        return out


class ClampGrad(Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.lo, ctx.hi = lo, hi
        ctx.set_materialize_grads(False)
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        if g is None:
            return None, None, None
        return g.clamp(ctx.lo, ctx.hi), None, None


x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = Cube.apply(x, 2.0)
print(y, y.grad_fn.__class__.__name__)
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad)
v, i = SortWithIdx.apply(x)
print(v, i, v.requires_grad, i.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
x.grad = None
z = ClampGrad.apply(x * 4, -1.0, 1.0)
(z * torch.tensor([5.0, -5.0, 0.5])).sum().backward()
print(x.grad)
try:
    vv, _ = SortWithIdx.apply(x)
    gg, = torch.autograd.grad(vv.sum(), x, create_graph=True)
    gg.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.autograd.gradcheck(lambda a: Cube.apply(a, 1.5), (torch.tensor([0.3, -0.7], requires_grad=True),)))


class MulAdd(Function):
    @staticmethod
    def forward(ctx, a, b, c):
        ctx.save_for_backward(a, b)
        ctx.mark_dirty(c)
        c.add_(a * b)
        return c

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a, g


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([0.5, 0.5], requires_grad=True).clone()
out = MulAdd.apply(a, b, c)
print(out is c, out)
out.sum().backward()
print(a.grad, b.grad)
