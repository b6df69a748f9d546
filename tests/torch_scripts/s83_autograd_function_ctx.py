import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable

class MulAdd(Function):
    @staticmethod
    def forward(x, y, alpha):
        return x * y + alpha

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, alpha = inputs
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        gx = grad * y if ctx.needs_input_grad[0] else None
        gy = grad * x if ctx.needs_input_grad[1] else None
        return gx, gy, None

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([4.0, 5.0, 6.0])
out = MulAdd.apply(x, y, 0.5)
print(out, out.grad_fn is not None, type(out.grad_fn).__name__)
out.sum().backward()
print(x.grad, y.grad)

class SortWithIdx(Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    @once_differentiable
    def backward(ctx, gvals, gidx):
        idx, = ctx.saved_tensors
        g = torch.zeros_like(gvals)
        g[idx] = gvals
        return g

z = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIdx.apply(z)
print(v, i, v.requires_grad, i.requires_grad, i.dtype)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(z.grad)

class Clamp01(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(0, 1)
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * ((x >= 0) & (x <= 1)).to(g.dtype)

w = torch.tensor([-0.5, 0.5, 1.5], requires_grad=True)
r = Clamp01.apply(w)
r.backward(torch.ones(3))
print(r, w.grad)
print(torch.autograd.gradcheck(Clamp01.apply, (torch.tensor([0.2, 0.7], requires_grad=True),)))

class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g

a = torch.tensor(3.0, requires_grad=True)
b = Square.apply(a)
ga, = torch.autograd.grad(b, a, create_graph=True)
gga, = torch.autograd.grad(ga, a)
print(b.item(), ga.item(), gga.item())

class NoGradOut(Function):
    @staticmethod
    def forward(ctx, x):
        return x.argmax()
    @staticmethod
    def backward(ctx, g):
        return None
m = NoGradOut.apply(torch.tensor([1.0, 5.0, 2.0], requires_grad=True))
print(m, m.dtype)
