import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp


def f(x):
    return torch.stack([x[0] ** 2 * x[1], torch.sin(x[1]) + x[2] * x[0], x.prod()])


def energy(x):
    return (x ** 3).sum() + x[0] * x[1] * x[2]


x = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([1.0, 0.5, -1.0])
print(jacobian(f, x).round(decimals=6))
print(hessian(energy, x))
out, g = vjp(f, x, v)
print(out.round(decimals=6), g.round(decimals=6))
out, t = jvp(f, x, v)
print(t.round(decimals=6))
out, h = hvp(energy, x, v)
print(out, h)
out, h2 = vhp(energy, x, v)
print(h2)
J = jacobian(lambda a, b: a @ b, (torch.eye(2), torch.tensor([1.0, 2.0])))
print(J[0].shape, J[1])
print(jacobian(f, x, vectorize=True, strategy="forward-mode").round(decimals=6))
print(hessian(lambda a, b: (a * b).sum() ** 2, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 1.0])))[0][1])
