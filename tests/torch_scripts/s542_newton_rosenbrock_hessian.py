import torch
from torch.autograd.functional import hessian, jacobian


def rosen(x):
    return ((1 - x[:-1]) ** 2).sum() + 100 * ((x[1:] - x[:-1] ** 2) ** 2).sum()


x = torch.tensor([-1.2, 1.0, 0.5])
for it in range(12):
    g = jacobian(rosen, x)
    Hm = hessian(rosen, x)
    step = torch.linalg.solve(Hm, g)
    # damped Newton: backtrack while not decreasing
    a = 1.0
    while rosen(x - a * step) > rosen(x) and a > 1e-4:
        a /= 2
    x = x - a * step
    if it % 3 == 0 or it == 11:
        print(it, f"{rosen(x).item():.6e}", f"{g.norm().item():.3e}", a)
print(x.round(decimals=6))
Hm = hessian(rosen, torch.ones(3))
print(Hm)
ev = torch.linalg.eigvalsh(Hm)
print(ev.round(decimals=4), bool((ev > 0).all()))
x = torch.tensor([0.3, -0.2, 0.8], requires_grad=True)
g, = torch.autograd.grad(rosen(x), x, create_graph=True)
rows = [torch.autograd.grad(g[i], x, retain_graph=True)[0] for i in range(3)]
print(torch.allclose(torch.stack(rows), hessian(rosen, x.detach())))
v = torch.tensor([1.0, 0.0, -1.0])
_, hvp = torch.autograd.functional.hvp(rosen, x.detach(), v)
print(hvp, torch.stack(rows) @ v)
