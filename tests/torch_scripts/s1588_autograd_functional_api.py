# torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp with create_graph/strict
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp


def f(x):
    return torch.stack([x[0] * x[1], x[0].sin() + x[1] ** 2])


x = torch.tensor([0.5, -1.0])
print(jacobian(f, x))
print(jacobian(f, x, vectorize=True, strategy="forward-mode"))
out, v = vjp(f, x, torch.tensor([1.0, 2.0]))
print(out, v)
out, t = jvp(f, x, torch.tensor([0.0, 1.0]))
print(t)


def g(x):
    return (x ** 3).sum() + x[0] * x[1]


print(hessian(g, x))
print(hvp(g, x, torch.tensor([1.0, 0.0]))[1], vhp(g, x, torch.tensor([1.0, 0.0]))[1])
J = jacobian(lambda a, b: a * b, (x, torch.tensor([2.0, 3.0])))
print(type(J).__name__, J[1])
try:
    jacobian(lambda a: torch.ones(2), x, strict=True)
except RuntimeError as e:
    print(str(e)[:120])
print(jacobian(lambda a: torch.ones(2), x))
