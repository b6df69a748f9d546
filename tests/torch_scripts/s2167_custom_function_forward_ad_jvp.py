import torch
import torch.autograd.forward_ad as fwAD

class ScaledExp(torch.autograd.Function):
    @staticmethod
    def forward(x, scale):
        return torch.exp(x) * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(output)
        ctx.save_for_forward(output)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return g * out, None

    @staticmethod
    def jvp(ctx, x_t, scale_t):
        (out,) = ctx.saved_tensors
        return x_t * out

x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = ScaledExp.apply(x, 3.0)
y.sum().backward()
print(y.detach().round(decimals=5), x.grad.round(decimals=5))
with fwAD.dual_level():
    dual = fwAD.make_dual(torch.tensor([0.0, 1.0, -1.0]), torch.tensor([1.0, 0.0, 2.0]))
    out = ScaledExp.apply(dual, 2.0)
    p, t = fwAD.unpack_dual(out)
    print(p.round(decimals=5), t.round(decimals=5))
ScaledExp.generate_vmap_rule = True
print(torch.func.vmap(lambda v: ScaledExp.apply(v, 1.0).sum())(torch.tensor([[0.0, 1.0], [1.0, 1.0]])).round(decimals=4))
print(torch.func.jacfwd(lambda v: ScaledExp.apply(v, 1.0))(torch.tensor([0.0, 0.5])).round(decimals=5))
