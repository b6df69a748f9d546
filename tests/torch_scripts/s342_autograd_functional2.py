import torch
from torch.autograd.functional import jacobian, hessian, hvp, vhp, jvp, vjp


def f(x, y):
    return torch.stack([(x * y).sum(), x.pow(3).sum() - y.prod()]), x.exp() * y.sum()


x = torch.tensor([0.3, -0.6, 1.2])
y = torch.tensor([1.0, 2.0, 0.5])
J = jacobian(f, (x, y))
print(len(J), len(J[0]), J[0][0].shape, J[1][1].shape)
print(J[1][0])
Jv = jacobian(lambda a: a.sin() * a.sum(), x, vectorize=True)
Jl = jacobian(lambda a: a.sin() * a.sum(), x, strategy="reverse-mode")
Jf = jacobian(lambda a: a.sin() * a.sum(), x, vectorize=True, strategy="forward-mode")
print(torch.allclose(Jv, Jl), torch.allclose(Jf, Jl))


def g(a, b):
    return (a ** 2 * b).sum() + (a * b.exp()).sum()


H = hessian(g, (x, y))
print(H[0][1])
print(torch.allclose(H[0][1], H[1][0].T))
v = torch.tensor([1.0, 0.0, -1.0])
out, hv = hvp(lambda a: (a.sin() ** 2).sum(), x, v)
out2, vh = vhp(lambda a: (a.sin() ** 2).sum(), x, v)
print(out, hv, torch.allclose(hv, vh))
o, jv = jvp(lambda a: a.cumsum(0) * a, x, v)
o2, vj = vjp(lambda a: a.cumsum(0) * a, x, v)
print(jv, vj)
xr = x.clone().requires_grad_(True)
Jc = jacobian(lambda a: a.tanh() * a, xr, create_graph=True)
Jc.trace().backward()
print(xr.grad)
print(hessian(lambda a: a.prod(), torch.tensor([1.0, 2.0, 3.0])))
o3, hv3 = hvp(g, (x, y), (v, v))
print(hv3)
try:
    jacobian(lambda a: a.detach() * 2, x, strict=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(jacobian(lambda a: a.detach() * 2, x))
