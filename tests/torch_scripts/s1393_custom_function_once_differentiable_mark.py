# Function with mark_non_differentiable, set_materialize_grads, needs_input_grad
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
        out = torch.zeros_like(gv)
        out[i] = gv
        return out

x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIdx.apply(x)
print(v, i, i.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)

class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        ctx.set_materialize_grads(False)
        ctx.s = s
        return x * s, x + 0

    @staticmethod
    def backward(ctx, g1, g2):
        print("needs", ctx.needs_input_grad, g1 is None, g2 is None)
        return g1 * ctx.s if g1 is not None else None, None

a = torch.tensor([1.0, 2.0], requires_grad=True)
p, q = Scale.apply(a, 4.0)
p.sum().backward()
print(a.grad)
