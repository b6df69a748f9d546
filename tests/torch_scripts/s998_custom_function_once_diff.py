# autograd.Function with save_for_backward, mark_non_differentiable, set_materialize_grads, once_differentiable
import torch
from torch.autograd.function import once_differentiable

class SortWithIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        v, i = x.sort()
        ctx.mark_non_differentiable(i)
        ctx.save_for_backward(i)
        return v, i

    @staticmethod
    @once_differentiable
    def backward(ctx, gv, gi):
        (i,) = ctx.saved_tensors
        g = torch.zeros_like(gv)
        g[i] = gv
        return g

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.set_materialize_grads(False)
        ctx.scale = scale
        ctx.save_for_backward(x)
        return x ** 3 * scale, x * 0 + 1

    @staticmethod
    def backward(ctx, g, g2):
        (x,) = ctx.saved_tensors
        print("g2 is None:", g2 is None)
        return 3 * x ** 2 * ctx.scale * g, None

x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIdx.apply(x)
print(v, i, i.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
x.grad = None
y, _ = Cube.apply(x, 2.0)
y.sum().backward()
print(x.grad, y.grad_fn.__class__.__name__)
x.grad = None
v, _ = SortWithIdx.apply(x)
gx, = torch.autograd.grad(v.sum(), x, create_graph=True)
print(gx, gx.requires_grad)
try:
    gx.sum().backward()
except RuntimeError as e:
    print(str(e)[:60])
