import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p) * 0.5)
x = torch.tensor([[0.5, -1.0, 2.0]])
v = torch.tensor([[1.0, 0.0, 0.0]])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    out = net(dx)
    p, t = fwAD.unpack_dual(out)
    print(p.detach(), p.requires_grad, t.detach(), t.requires_grad)
    print(type(fwAD.unpack_dual(out)).__name__)
    p.sum().backward()
    print(net[0].bias.grad)
J = torch.autograd.functional.jacobian(net, x).squeeze()
print(torch.allclose(J[:, 0], t.squeeze()))
params = {n: p.detach() for n, p in net.named_parameters()}
tangents = {n: torch.ones_like(p) for n, p in params.items()}
with fwAD.dual_level():
    dual_params = {n: fwAD.make_dual(params[n], tangents[n]) for n in params}
    out = torch.func.functional_call(net, dual_params, (x,))
    print(fwAD.unpack_dual(out).tangent)
with fwAD.dual_level():
    a = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
    for name, f in [("sin", torch.sin), ("exp", torch.exp), ("pow", lambda u: u ** 3), ("softmax", lambda u: torch.softmax(u, 0)), ("norm", lambda u: u.norm().expand(2)), ("cumsum", lambda u: u.cumsum(0)), ("where", lambda u: torch.where(u > 1.5, u, -u)), ("matmul", lambda u: torch.tensor([[1.0, 2.0], [3.0, 4.0]]) @ u)]:
        print(name, fwAD.unpack_dual(f(a)).tangent)
print(fwAD.unpack_dual(torch.ones(2)).tangent)
