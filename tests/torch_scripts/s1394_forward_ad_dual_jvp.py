# forward-mode AD with dual numbers: jvp of a small MLP-like function
import torch
import torch.autograd.forward_ad as fwAD

W = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
def f(x):
    return torch.tanh(W @ x).sum() * x

x = torch.tensor([0.3, -0.2])
v = torch.tensor([1.0, 0.0])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    out = f(dx)
    p, t = fwAD.unpack_dual(out)
    print(p, t)
    print(fwAD.unpack_dual(dx).tangent)
_, jvp = torch.func.jvp(f, (x,), (v,))
print(torch.allclose(jvp, t))
print(torch.autograd.functional.jvp(f, x, v)[1])
