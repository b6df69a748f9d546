# custom autograd.Function: save_for_backward, mark_non_differentiable, needs_input_grad,
# set_materialize_grads and once_differentiable
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
    def backward(ctx, gv, gi):
        (i,) = ctx.saved_tensors
        out = torch.zeros_like(gv)
        out[i] = gv
        return out


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIdx.apply(x)
print(v, i, v.grad_fn.name(), i.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        ctx.set_materialize_grads(False)
        return x * k, x + k

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        print("needs", ctx.needs_input_grad, g1 is None, g2 is None)
        return (None if g1 is None else g1 * ctx.k), None


a, b = Scale.apply(x, 2.0)
a.sum().backward()
print(x.grad)
g, = torch.autograd.grad(Scale.apply(x, 3.0)[0].sum(), x, create_graph=True)
print(g, g.requires_grad)
try:
    torch.autograd.grad(g.sum(), x)
except RuntimeError as e:
    print(str(e)[:120])
