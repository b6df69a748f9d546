import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([1.0, 0.0, -1.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    y = (d.sin() * d).sum()
    p, tan = fwAD.unpack_dual(y)
    print(p.round(decimals=5), tan.round(decimals=5))
    z = torch.nn.functional.softplus(d) / (1 + d ** 2)
    print(fwAD.unpack_dual(z).tangent.round(decimals=5))
    print(fwAD.unpack_dual(d).tangent is t, fwAD.unpack_dual(x).tangent)
    m = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
    dm = fwAD.make_dual(m, torch.eye(2))
    prod = (dm @ dm).tanh()
    print(fwAD.unpack_dual(prod).tangent.round(decimals=5))
    inv = torch.linalg.inv(dm)
    print(fwAD.unpack_dual(inv).tangent.round(decimals=5))
    print(fwAD.unpack_dual(torch.linalg.det(dm)).tangent)
    up = fwAD.unpack_dual(y)
    print(type(up).__name__, up._fields)
