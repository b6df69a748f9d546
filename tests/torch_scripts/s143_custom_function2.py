import torch
from torch.autograd import Function, gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable

class SmoothAbs(Function):
    @staticmethod
    def forward(ctx, x, eps):
        y = torch.sqrt(x * x + eps)
        ctx.save_for_backward(x, y)
        ctx.eps = eps
        return y
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * x / y, None

class SortWithIdx(Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx
    @staticmethod
    @once_differentiable
    def backward(ctx, gv, gi):
        (idx,) = ctx.saved_tensors
        out = torch.zeros_like(gv)
        out[idx] = gv
        return out

class MulConst(Function):
    @staticmethod
    def forward(ctx, x, c):
        ctx.set_materialize_grads(False)
        ctx.c = c
        return x * c, x + c
    @staticmethod
    def backward(ctx, g1, g2):
        gx = None
        if g1 is not None:
            gx = g1 * ctx.c
        if g2 is not None:
            gx = g2 if gx is None else gx + g2
        return gx, None

x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
y = SmoothAbs.apply(x, 1e-2)
print(y, y.grad_fn.__class__.__name__)
y.sum().backward()
print(x.grad)
print(gradcheck(lambda t: SmoothAbs.apply(t, 0.1), (torch.tensor([0.3, -0.7], requires_grad=True),)))
print(gradgradcheck(lambda t: SmoothAbs.apply(t, 0.1), (torch.tensor([0.3, -0.7], requires_grad=True),)))
v, i = SortWithIdx.apply(x)
print(v, i, i.requires_grad)
(v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
x.grad = None
a, b = MulConst.apply(x, 3.0)
a.sum().backward()
print(x.grad)
x.grad = None
a, b = MulConst.apply(x, 3.0)
(a.sum() + b.sum()).backward()
print(x.grad)
print(gradcheck(torch.special.erfinv, (torch.tensor([0.1, -0.3], requires_grad=True),)), gradcheck(torch.lgamma, (torch.tensor([1.5, 2.5], requires_grad=True),)))
print(gradcheck(lambda t: torch.linalg.det(t), (torch.tensor([[2.0, 1.0], [0.5, 3.0]], requires_grad=True),)), gradgradcheck(torch.logsumexp, (torch.tensor([1.0, 2.0], requires_grad=True), 0)))
class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g
z = torch.tensor(2.0, requires_grad=True)
(dz,) = torch.autograd.grad(Cube.apply(z), z, create_graph=True)
(d2,) = torch.autograd.grad(dz, z)
print(dz, d2)
