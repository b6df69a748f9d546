# Forward-mode AD through nn.functional calls: dual tensors, unpack_dual tangents, jvp of a layer
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

W = torch.tensor([[1.0, -0.5], [0.3, 2.0], [0.0, 1.0]])
b = torch.tensor([0.1, 0.2, -0.3])
x = torch.tensor([0.5, -1.0])
v = torch.tensor([1.0, 0.5])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    y = F.softplus(F.linear(dx, W, b))
    z = F.layer_norm(y, (3,))
    s = torch.log_softmax(z, dim=0)
    for t in (y, z, s):
        p, tan = fwAD.unpack_dual(t)
        print(p, tan)
    g = F.gelu(dx).sum()
    print(fwAD.unpack_dual(g).tangent)
    m = F.mse_loss(dx, torch.zeros(2))
    print(fwAD.unpack_dual(m))
print(torch.func.jvp(lambda a: F.silu(a).sum(), (x,), (v,)))
