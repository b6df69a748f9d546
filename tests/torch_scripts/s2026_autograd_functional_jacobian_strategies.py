import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp

def f(x, y):
    return torch.stack([x[0] * y[1], x[1] ** 2 + y[0], torch.sin(x[0] * y[0])])

x = torch.tensor([0.5, -1.0])
y = torch.tensor([2.0, 3.0])
J1 = jacobian(f, (x, y))
J2 = jacobian(f, (x, y), vectorize=True)
J3 = jacobian(f, (x, y), vectorize=True, strategy="forward-mode")
for a, b, c in zip(J1, J2, J3):
    print(a.shape, torch.allclose(a, b), torch.allclose(a, c))
print(J1[0].round(decimals=5))
print(J1[1].round(decimals=5))

def energy(p):
    return (p[0] ** 2 * p[1] + torch.exp(p[1]) * p[2] - p[2] ** 3).sum()

p = torch.tensor([1.0, 0.5, -0.5])
H = hessian(energy, p)
Hv = hessian(energy, p, vectorize=True)
Hf = hessian(energy, p, vectorize=True, outer_jacobian_strategy="forward-mode")
print(H.round(decimals=5))
print(torch.allclose(H, Hv), torch.allclose(H, Hf), torch.allclose(H, H.T))
v = torch.tensor([1.0, 0.0, 2.0])
out, hv = hvp(energy, p, v)
out2, vh = vhp(energy, p, v)
print(round(out.item(), 6), hv.round(decimals=5), torch.allclose(hv, vh), torch.allclose(hv, H @ v))
o, jv = jvp(lambda a: a.sin() * a, p, v)
o, vj = vjp(lambda a: a.sin() * a, p, v)
print(jv.round(decimals=5), vj.round(decimals=5))
Jc = jacobian(lambda a: a ** 3, p, create_graph=True)
print(Jc.requires_grad, Jc.grad_fn is not None)
g, = torch.autograd.grad(Jc.trace(), p, allow_unused=True) if p.requires_grad else (None,)
print(g)
pp = p.clone().requires_grad_()
Jc = jacobian(lambda a: a ** 3, pp, create_graph=True)
g, = torch.autograd.grad(Jc.trace(), pp)
print(g.round(decimals=4))
