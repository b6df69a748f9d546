# forward-mode AD through a module with torch.autograd.forward_ad (dual numbers), vs jvp
import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD

net = nn.Sequential(nn.Linear(2, 2), nn.Sigmoid())
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1.0, 2.0], [-1.0, 0.5]])); net[0].bias.copy_(torch.tensor([0.1, -0.1]))
x = torch.tensor([[0.3, -0.2]])
t = torch.tensor([[1.0, 0.0]])
with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    out = net(d)
    p, tan = fwAD.unpack_dual(out)
print(p.round(decimals=6), tan.round(decimals=6))
_, ref = torch.autograd.functional.jvp(net, x, t)
print(ref.round(decimals=6), torch.allclose(tan, ref))
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor(2.0), torch.tensor(1.0))
    print(fwAD.unpack_dual(d ** 3).tangent, fwAD.unpack_dual(torch.log(d)).tangent)
