import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp


def rosen(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


x0 = torch.tensor([-1.2, 1.0, 0.8])
H1 = hessian(rosen, x0)
H2 = hessian(rosen, x0, vectorize=True)
H3 = hessian(rosen, x0, vectorize=True, outer_jacobian_strategy="forward-mode")
print(H1)
print(torch.allclose(H1, H2), torch.allclose(H1, H3))
J = jacobian(lambda a, b: (a * b, a + b.sum()), (x0, torch.ones(3)))
print(len(J), len(J[0]), J[0][1].diagonal(), J[1][1])
try:
    vjp(lambda a: a.detach() * 2, x0, torch.ones(3), strict=True)
except RuntimeError as e:
    print("strict:", e)
try:
    hessian(lambda a: a.sum(), x0, strict=True)
except RuntimeError as e:
    print("strict:", e)
try:
    jacobian(rosen, x0, strict=True, vectorize=True)
except RuntimeError as e:
    print("vectorize:", e)
print(hessian(lambda a: a.sum(), x0))
out, v = vjp(rosen, x0)
print(round(out.item(), 4), v)
_, jv = jvp(lambda a: a ** 3, x0, torch.tensor([1.0, 0.0, 2.0]))
print(jv)
_, hv = hvp(rosen, x0, torch.tensor([1.0, 0.0, 0.0]))
_, vh = vhp(rosen, x0, torch.tensor([1.0, 0.0, 0.0]))
print(hv, torch.equal(hv, vh))
try:
    jvp(lambda a: a ** 3, x0, torch.ones(2))
except RuntimeError as e:
    print("jvp:", e)
try:
    vjp(rosen, x0, torch.ones(2))
except RuntimeError as e:
    print("vjp:", e)
