# Custom Function with a jvp staticmethod (forward-mode) and save_for_forward, used with forward_ad and torch.func.jvp
import torch
import torch.autograd.forward_ad as fwAD

class MySin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x.sin()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos()

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return t * x.cos()

x = torch.tensor([0.0, 1.0, 2.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(3))
    out = MySin.apply(d)
    print(fwAD.unpack_dual(out).tangent)
xr = x.clone().requires_grad_()
MySin.apply(xr).sum().backward()
print(xr.grad)
