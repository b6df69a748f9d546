# Custom Functions with non-tensor arguments, returning views, save_for_backward of outputs,
# ctx.saved_tensors reused twice, and apply with keyword-less defaults
import torch


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.lo, ctx.hi = lo, hi
        ctx.save_for_backward(x)
        return x.clamp(lo, hi)

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        inside = (x >= ctx.lo) & (x <= ctx.hi)
        return g * inside, None, None


class SoftplusOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = torch.log1p(torch.exp(x))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * (1 - torch.exp(-y))


x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
Clamp.apply(x, -1.0, 1.0).sum().backward()
print(x.grad)
x.grad = None
y = SoftplusOut.apply(x)
y.backward(torch.tensor([1.0, 2.0, 3.0]))
print(y, x.grad, torch.sigmoid(x.detach()) * torch.tensor([1.0, 2.0, 3.0]))
print(y.grad_fn.name() if hasattr(y.grad_fn, "name") else type(y.grad_fn).__name__)
print(type(y.grad_fn).__name__, y.grad_fn.next_functions[0][0].__class__.__name__)
print(torch.autograd.gradcheck(lambda t: Clamp.apply(t, -1.0, 1.0), (torch.tensor([-2.0, 0.3], requires_grad=True),)))
