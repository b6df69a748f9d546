# mark_non_differentiable for sort indices, mark_dirty for in-place, needs_input_grad
import torch

class SortWithIdx(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = torch.sort(x)
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    def backward(ctx, gv, gi):
        (idx,) = ctx.saved_tensors
        out = torch.zeros_like(gv)
        out[idx] = gv
        return out

class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g

class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        print("needs", ctx.needs_input_grad)
        gx = g * w if ctx.needs_input_grad[0] else None
        gw = (g * x).sum() if ctx.needs_input_grad[1] else None
        return gx, gw

x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIdx.apply(x)
print(v, i, i.requires_grad)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.clone()
c = AddOneInplace.apply(b)
print(c is b, c, c.grad_fn is not None)
c.sum().backward()
print(a.grad)
w = torch.tensor(2.0, requires_grad=True)
Scale.apply(torch.tensor([1.0, 2.0]), w).sum().backward()
print(w.grad)
