import torch


class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


class ScaleKeepNonDiff(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        idx = x.argmax()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x)
        return x * 3, idx

    @staticmethod
    def backward(ctx, g, g_idx):
        (x,) = ctx.saved_tensors
        return g * 3


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.clone()
c = AddOneInplace.apply(b)
print(c is b, c)
(c * c).sum().backward()
print(a.grad)
y, i = ScaleKeepNonDiff.apply(a)
print(y, i, i.requires_grad, y.requires_grad)
y.sum().backward()
print(a.grad)
leaf = torch.ones(2, requires_grad=True)
try:
    AddOneInplace.apply(leaf)
except RuntimeError as e:
    print("leaf error:", "leaf" in str(e))
