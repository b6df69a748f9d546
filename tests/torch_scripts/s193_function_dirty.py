import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class SortWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, gvals, gidx):
        (idx,) = ctx.saved_tensors
        gx = torch.zeros_like(gvals)
        gx.scatter_(0, idx, gvals)
        return gx


class AddOneInplace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
vals, idx = SortWithIndex.apply(x)
print(vals, idx, idx.requires_grad, vals.grad_fn.name())
(vals * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
h = x * 1
out = AddOneInplace.apply(h)
print(out is h, out, out.grad_fn.name(), h._version)
(out * out).sum().backward()
print(x.grad)
try:
    AddOneInplace.apply(x)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
v2, _ = SortWithIndex.apply(x)
g = torch.autograd.grad(v2.sum(), x, create_graph=True)[0]
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
