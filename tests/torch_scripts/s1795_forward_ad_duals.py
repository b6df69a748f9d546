# torch.autograd.forward_ad: dual tensors through ops, unpack_dual's named fields, nesting
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.5, 1.0, 2.0])
v = torch.tensor([1.0, 0.0, 2.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    print(fwAD.unpack_dual(d).tangent)
    y = torch.sin(d) * d.exp() + d.pow(3) / (1 + d)
    p, t = fwAD.unpack_dual(y)
    print(p, t)
    u = fwAD.unpack_dual(y)
    print(type(u).__name__, u._fields)
    z = torch.nn.functional.softplus(d).sum()
    print(fwAD.unpack_dual(z).tangent)
    W = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
    print(fwAD.unpack_dual(W @ d).tangent)
    print(fwAD.unpack_dual(torch.cumsum(d, 0)).tangent, fwAD.unpack_dual(d.max()).tangent)
    print(fwAD.unpack_dual(torch.where(d > 0.7, d * d, -d)).tangent)
    print(fwAD.unpack_dual(d[1:]).tangent, fwAD.unpack_dual(d.view(3, 1).expand(3, 2)).tangent)
    print(fwAD.unpack_dual(x * 2).tangent)
    print(fwAD.unpack_dual(torch.logsumexp(d, 0)).tangent)
    print(fwAD.unpack_dual(torch.linalg.norm(d)).tangent)
    print(fwAD.unpack_dual(torch.softmax(d, 0)).tangent)
try:
    fwAD.make_dual(x, v)
except RuntimeError as e:
    print("RuntimeError", e)
with fwAD.dual_level():
    try:
        fwAD.make_dual(x, torch.ones(2))
    except RuntimeError as e:
        print("RuntimeError", e)
