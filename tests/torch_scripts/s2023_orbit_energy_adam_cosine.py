import math
import torch

# find an initial velocity so a leapfrog orbit returns close to its start
GM = 1.0
r0 = torch.tensor([1.0, 0.0])
v = torch.tensor([0.0, 0.9], requires_grad=True)

def leapfrog(r, v, dt, n):
    acc = lambda r: -GM * r / r.norm() ** 3
    a = acc(r)
    for _ in range(n):
        v = v + 0.5 * dt * a
        r = r + dt * v
        a = acc(r)
        v = v + 0.5 * dt * a
    return r, v

opt = torch.optim.Adam([v], lr=0.02, betas=(0.9, 0.99))
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10, eta_min=1e-3)
period = 2 * math.pi
for it in range(10):
    opt.zero_grad()
    r, vv = leapfrog(r0, v, period / 100, 100)
    energy = 0.5 * (vv ** 2).sum() - GM / r.norm()
    loss = ((r - r0) ** 2).sum()
    loss.backward()
    opt.step()
    sched.step()
    print(it, f"{loss.item():.6f}", f"{energy.item():.5f}", f"{sched.get_last_lr()[0]:.6f}")
print(v.detach().round(decimals=4))
print(opt.state_dict()["state"][0]["step"])
