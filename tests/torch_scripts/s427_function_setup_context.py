import torch
from torch.func import vmap, grad


class MyExp(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y

    @staticmethod
    def jvp(ctx, t):
        return t * ctx.saved_tensors[0] if ctx.saved_tensors else t


class Clamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.mark_dirty(x)
        ctx.save_for_backward((x >= lo) & (x <= hi))
        return x.clamp_(lo, hi)

    @staticmethod
    def backward(ctx, g):
        m, = ctx.saved_tensors
        return g * m, None, None


x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
y = MyExp.apply(x)
y.sum().backward()
print(y, x.grad)
print(grad(lambda v: MyExp.apply(v).sum())(torch.tensor([1.0, 2.0])))
print(vmap(MyExp.apply)(torch.tensor([[0.0], [1.0]])))
a = torch.tensor([-1.0, 0.5, 3.0], requires_grad=True)
b = a * 1
c = Clamp.apply(b, 0.0, 1.0)
print(c is b, c)
(c * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(a.grad)


class Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        out = torch.zeros(2)
        if g1 is not None:
            out = out + g1 * 2
        if g2 is not None:
            out = out + g2 * 3
        return out


z = torch.ones(2, requires_grad=True)
p, q = Both.apply(z)
p.sum().backward()
print(z.grad)
