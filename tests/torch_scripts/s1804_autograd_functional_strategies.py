# torch.autograd.functional: vectorize, strategy, create_graph, strict, tuple inputs
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f(x, y):
    return torch.stack([x.pow(2).sum() * y[0], (x * y).sum(), x.prod()])


x = torch.tensor([1.0, 2.0])
y = torch.tensor([3.0, -1.0])
for kw in [{}, {"vectorize": True}, {"vectorize": True, "strategy": "forward-mode"}]:
    J = jacobian(f, (x, y), **kw)
    print(kw, J[0], J[1])
xr = x.clone().requires_grad_()
J = jacobian(lambda t: t.exp(), xr, create_graph=True)
print(J.requires_grad, J.grad_fn is not None)
print(torch.autograd.grad(J.sum(), xr))


def g(x):
    return (x.pow(3) * torch.tensor([1.0, 2.0])).sum()


print(hessian(g, x))
print(hessian(g, x, vectorize=True, outer_jacobian_strategy="forward-mode").detach())
H = hessian(lambda a, b: (a * b).pow(2).sum(), (x, y))
print([[h + 0.0 for h in row] for row in H])  # (+ 0.0: no signed zeros)
print(vjp(lambda t: t ** 2, x, torch.ones(2)))
print(jvp(lambda t: t ** 2, x, torch.ones(2)))
print(hvp(g, x, torch.tensor([1.0, 0.0])))
print(vhp(g, x, torch.tensor([1.0, 0.0])))
try:
    jacobian(lambda t: torch.ones(2), x, strict=True)
except RuntimeError as e:
    print("RuntimeError", e)
print(jacobian(lambda t: torch.ones(2), x))
try:
    jacobian(f, (x, y), strategy="forward-mode")
except NotImplementedError as e:
    print("NotImplementedError", e)
try:
    hessian(lambda t: t, x)
except RuntimeError as e:
    print("RuntimeError", e)
