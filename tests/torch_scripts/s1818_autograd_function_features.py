# autograd.Function: mark_non_differentiable, set_materialize_grads, once_differentiable, jvp
import torch
from torch.autograd.function import once_differentiable


class SortWithIndex(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        vals, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(idx)
        return vals, idx

    @staticmethod
    def backward(ctx, g_vals, g_idx):
        (idx,) = ctx.saved_tensors
        out = torch.zeros_like(g_vals)
        out[idx] = g_vals
        return out


x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, i = SortWithIndex.apply(x)
print(v.requires_grad, i.requires_grad, i.dtype)
(v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)


class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        print("grads None?", g1 is None, g2 is None)
        total = torch.zeros(2)
        if g1 is not None:
            total = total + 2 * g1
        if g2 is not None:
            total = total + 3 * g2
        return total


y = torch.tensor([1.0, 1.0], requires_grad=True)
a, b = TwoOut.apply(y)
a.sum().backward()
print(y.grad)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * g


z = torch.tensor([2.0], requires_grad=True)
(gz,) = torch.autograd.grad(Cube.apply(z), z, create_graph=True)
print(gz, gz.requires_grad)
try:
    gz.backward()
except RuntimeError as e:
    print("RuntimeError", str(e)[:90])


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(x, k):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None

    @staticmethod
    def jvp(ctx, tx, tk):
        return tx * ctx.k


import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0]))
    print(fwAD.unpack_dual(Scale.apply(d, 4.0)).tangent)
w = torch.tensor([1.0], requires_grad=True)
Scale.apply(w, 5.0).backward()
print(w.grad)
print(torch.func.grad(lambda t: Scale.apply(t, 3.0).sum())(torch.tensor([1.0, 1.0])) if hasattr(Scale, "vmap") or True else None)
