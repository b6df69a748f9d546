# forward-mode AD on common ops: unpack_dual namedtuple, tangent of composite functions
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([0.5, 1.0, 2.0])
v = torch.tensor([1.0, 1.0, 0.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    y = (d.sin() * d.exp()).sum() + d.norm() + torch.tanh(d).prod()
    u = fwAD.unpack_dual(y)
    print(type(u).__name__, u.primal, u.tangent)
    z = torch.softmax(d, 0)
    print(fwAD.unpack_dual(z).tangent)
    m = d @ torch.tensor([[1.0], [2.0], [3.0]])
    print(fwAD.unpack_dual(m).tangent)
    print(fwAD.unpack_dual(x).tangent)
