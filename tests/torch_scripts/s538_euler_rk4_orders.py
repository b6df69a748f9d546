import math
import torch


def f(t, y):
    return torch.stack([y[1], -y[0] - 0.1 * y[1]])


def euler(f, y0, t):
    ys = [y0]
    for i in range(len(t) - 1):
        h = t[i + 1] - t[i]
        ys.append(ys[-1] + h * f(t[i], ys[-1]))
    return torch.stack(ys)


def rk4(f, y0, t):
    ys = [y0]
    for i in range(len(t) - 1):
        h = (t[i + 1] - t[i]).item()
        y, ti = ys[-1], t[i]
        k1 = f(ti, y)
        k2 = f(ti + h / 2, y + h / 2 * k1)
        k3 = f(ti + h / 2, y + h / 2 * k2)
        k4 = f(ti + h, y + h * k3)
        ys.append(y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4))
    return torch.stack(ys)


y0 = torch.tensor([1.0, 0.0])
ref = rk4(f, y0, torch.linspace(0, 5, 2001))[-1]
errs = {}
for n in (25, 50, 100, 200):
    t = torch.linspace(0, 5, n + 1)
    e = (euler(f, y0, t)[-1] - ref).norm().item()
    r = (rk4(f, y0, t)[-1] - ref).norm().item()
    errs[n] = (e, r)
    print(f"n={n:4d} euler={e:.3e} rk4={r:.3e}")
ns = sorted(errs)
for a, b in zip(ns, ns[1:]):
    print(f"order euler {math.log2(errs[a][0] / errs[b][0]):.2f} rk4 {math.log2(errs[a][1] / errs[b][1]):.2f}")
traj = rk4(f, y0, torch.linspace(0, 5, 101))
energy = 0.5 * (traj ** 2).sum(dim=1)
print(traj.shape, traj.dtype, energy[::25])
print(torch.trapezoid(energy, dx=0.05).item() > 0, torch.diff(energy).lt(0).all().item())
area = torch.trapezoid(traj[:, 0], x=torch.linspace(0, 5, 101))
print(round(area.item(), 6))
