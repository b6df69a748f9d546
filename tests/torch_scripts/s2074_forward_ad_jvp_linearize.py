import torch
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, linearize, vjp, jacfwd

x = torch.tensor([0.5, 1.0, 1.5])
t = torch.tensor([1.0, 0.0, -1.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    y = torch.sin(d) * d.exp() + d.pow(2).sum()
    p, tan = fwAD.unpack_dual(y)
    print(p.round(decimals=5), tan.round(decimals=5))
    z = torch.nn.functional.softmax(d, dim=0)
    print(fwAD.unpack_dual(z).tangent.round(decimals=5))
    m = torch.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0]]) @ d
    print(fwAD.unpack_dual(m).tangent)
out, jv = jvp(lambda a: (a ** 3).cumsum(0), (x,), (t,))
print(out, jv)
val, lin = linearize(lambda a: a.tanh() * 2, x)
print(val.round(decimals=5), lin(t).round(decimals=5), lin(torch.ones(3)).round(decimals=5))
o, fn = vjp(lambda a, b: a * b, x, t)
print(fn(torch.ones(3)))
print(jacfwd(lambda a: torch.stack([a.prod(), a.sum()]))(x))
lin = torch.nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.arange(6.0).reshape(2, 3) / 10)
    lin.bias.fill_(0.5)
with fwAD.dual_level():
    dx = fwAD.make_dual(x.unsqueeze(0), t.unsqueeze(0))
    out = torch.relu(lin(dx))
    tan = fwAD.unpack_dual(out).tangent
    print(tan.detach(), tan.shape)
