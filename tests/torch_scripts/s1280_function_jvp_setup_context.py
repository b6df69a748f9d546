# custom Function with a jvp staticmethod, used by forward-mode AD
import torch
import torch.autograd.forward_ad as fwAD

class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return 2 * x * t

x = torch.tensor([1.0, -3.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.tensor([1.0, 0.5]))
    out = Square.apply(d)
    p, t = fwAD.unpack_dual(out)
    print(p, t)
