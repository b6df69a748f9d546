# A custom autograd.Function that checks ctx.needs_input_grad before computing each gradient,
# returns None for non-tensor args, and uses mark_non_differentiable for an index output
import torch


class ScaledMatmul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.save_for_backward(a, b)
        ctx.scale = scale
        return a @ b * scale

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        ga = gb = None
        if ctx.needs_input_grad[0]:
            ga = g @ b.t() * ctx.scale
        if ctx.needs_input_grad[1]:
            gb = a.t() @ g * ctx.scale
        return ga, gb, None


a = torch.arange(6.0).view(2, 3).requires_grad_()
b = torch.ones(3, 2)
out = ScaledMatmul.apply(a, b, 0.5)
out.sum().backward()
print(out, a.grad, b.grad)
b2 = torch.ones(3, 2, requires_grad=True)
ScaledMatmul.apply(a.detach(), b2, 2.0).pow(2).sum().backward()
print(b2.grad)


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
        print("gi is None:", gi is None, "gi", gi)
        gx = torch.zeros_like(gv)
        gx.scatter_(0, idx, gv)
        return gx


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIdx.apply(x)
print(v.requires_grad, i.requires_grad, i.dtype)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
