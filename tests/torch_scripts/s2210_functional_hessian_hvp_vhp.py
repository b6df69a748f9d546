import torch
from torch.autograd.functional import hessian, hvp, vhp


def energy(x, y):
    return (x ** 2 * y).sum() + torch.sin(x).prod() + (y ** 3).sum() / 3


x = torch.tensor([0.3, -0.7])
y = torch.tensor([1.5, 2.0])
H = hessian(energy, (x, y))
print(len(H), len(H[0]))
for i in range(2):
    for j in range(2):
        print(i, j, H[i][j].round(decimals=5).tolist())
Hv = hessian(energy, (x, y), vectorize=True)
print(all(torch.allclose(Hv[i][j], H[i][j]) for i in range(2) for j in range(2)))


def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2


p = torch.tensor([-1.2, 1.0])
v = torch.tensor([1.0, -1.0])
val, hv = hvp(rosen, p, v)
val2, vh = vhp(rosen, p, v)
print(val.item(), hv.tolist(), vh.tolist())
print(torch.allclose(hessian(rosen, p) @ v, hv))
outer_h = hessian(rosen, p, outer_jacobian_strategy="forward-mode", vectorize=True)
print(outer_h.tolist())
for k in range(6):
    g = torch.autograd.functional.jacobian(rosen, p)
    step = torch.linalg.solve(hessian(rosen, p), g)
    p = p - step
    print(k, [round(t, 6) for t in p.tolist()], round(rosen(p).item(), 10))
