import torch
import torch.autograd.forward_ad as fwAD
primal = torch.tensor([1.0, 2.0])
tangent = torch.tensor([1.0, 0.0])
with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    out = dual.sin() * dual
    p, t = fwAD.unpack_dual(out)
    print(p, t, fwAD.unpack_dual(out).tangent, p.requires_grad)
    w = torch.ones(2, requires_grad=True)
    d2 = fwAD.make_dual(w, tangent)
    print(fwAD.unpack_dual(d2 * 2).primal.requires_grad)
a = torch.ones(2, requires_grad=True)
class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def backward(ctx, g1, g2):
        return 2 * g1 + 3 * g2
u, v = Split.apply(a)
(u.sum() + v.sum()).backward(); print(a.grad)
u, v = Split.apply(a)
u.sum().backward(); print(a.grad)
print(torch.autograd.gradcheck(Split.apply, (torch.randn(3, dtype=torch.double, requires_grad=True),)))
print(torch.autograd.gradgradcheck(lambda x: (x ** 3).sum(), (torch.randn(3, dtype=torch.double, requires_grad=True),)))
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k: float):
        ctx.k = k
        return x * k
    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None
print(torch.autograd.grad(Scale.apply(a, 4.0).sum(), a))
class Straight(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)
    @staticmethod
    def backward(ctx, g):
        return g
q = torch.tensor([0.4, 1.6], requires_grad=True)
Straight.apply(q).sum().backward(); print(q.grad)
ste = q + (q.round() - q).detach()
print(ste, torch.autograd.grad(ste.sum(), q))
