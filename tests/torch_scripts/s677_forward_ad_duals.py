import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.5, 1.0, 2.0])
v = torch.tensor([1.0, 0.0, -1.0])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    y = torch.sin(dx) * dx.exp() + dx.pow(2).sum()
    p, t = fwAD.unpack_dual(y)
    print(p.round(decimals=5), t.round(decimals=5))
    lin = torch.nn.Linear(3, 2)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]]))
        lin.bias.zero_()
    out = fwAD.unpack_dual(torch.tanh(lin(dx)))
    print(out.primal.round(decimals=5), out.tangent.round(decimals=5))
    m = fwAD.make_dual(torch.tensor([[2.0, 1.0], [1.0, 3.0]]), torch.eye(2))
    inv = fwAD.unpack_dual(torch.linalg.inv(m)).tangent
    print(inv.round(decimals=5))
    s = fwAD.unpack_dual(dx.softmax(0)).tangent
    print(s.round(decimals=5))
    print(fwAD.unpack_dual(x).tangent)
