import torch
from torch.autograd.functional import jacobian, hessian, hvp, vhp, jvp, vjp


def f(x, y):
    return torch.stack([x.pow(2).sum() * y[0], (x * y.sum()).sin().sum()])


x = torch.tensor([0.3, -0.7, 1.1])
y = torch.tensor([2.0, -1.0])
J = jacobian(f, (x, y))
print(type(J), len(J), J[0].shape, J[1].shape)
print([round(v, 6) for v in J[0].flatten().tolist()])
Jv = jacobian(f, (x, y), vectorize=True)
print(torch.allclose(Jv[0], J[0]), torch.allclose(Jv[1], J[1]))


def energy(q):
    return (q ** 4).sum() - (q[:-1] * q[1:]).sum()


H = hessian(energy, x)
print(H)
v = torch.tensor([1.0, 0.5, -1.0])
val, hv = hvp(energy, x, v)
val2, vh = vhp(energy, x, v)
print(round(val.item(), 6), hv, torch.allclose(hv, vh), torch.allclose(H @ v, hv))
out, jv = jvp(lambda q: q.exp() * q, x, v)
out2, vj = vjp(lambda q: q.exp() * q, x, v)
print(torch.allclose(jv, vj), jv)
# create_graph: differentiate the hessian-vector product again
xr = x.clone().requires_grad_()
_, hv = hvp(energy, xr, v, create_graph=True)
hv.sum().backward()
print(xr.grad)
# strict mode complains about outputs independent of inputs
try:
    jacobian(lambda a: torch.ones(2), x, strict=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
print(jacobian(lambda a: torch.ones(2), x))
print(hessian(lambda a, b: (a * b).sum(), (torch.ones(2), torch.ones(2)))[0][1])
J2 = jacobian(lambda a: a.unsqueeze(0).expand(2, 3) * 2, x, strategy="forward-mode", vectorize=True)
print(J2.shape, J2[1, 2])
