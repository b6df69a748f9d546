import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class SortWithIdx(Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = torch.sort(x, dim=-1)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, gv, gi):
        idx, = ctx.saved_tensors
        out = torch.zeros_like(gv)
        out.scatter_(-1, idx, gv)
        return out


class ScaleBy(Function):
    @staticmethod
    def forward(ctx, x, alpha, name):
        ctx.alpha = alpha
        ctx.save_for_backward(x)
        return x * alpha

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        gx = g * ctx.alpha if ctx.needs_input_grad[0] else None
        return gx, None, None


x = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]], requires_grad=True)
v, i = SortWithIdx.apply(x)
print(v, i, i.requires_grad, v.requires_grad)
(v * torch.arange(3.0)).sum().backward()
print(x.grad)
y = ScaleBy.apply(x, 2.5, "s")
print(y.grad_fn.__class__.__name__, y.requires_grad)
y.pow(2).sum().backward()
print(x.grad)
with torch.no_grad():
    z = ScaleBy.apply(x, 3.0, "n")
print(z.requires_grad)
w = torch.tensor([1.0, 2.0])
print(ScaleBy.apply(w, 2.0, "c").requires_grad)
