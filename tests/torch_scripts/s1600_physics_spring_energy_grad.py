# a small physics program: spring chain energy, forces by autograd, a few velocity-Verlet steps
import torch

pos = torch.tensor([0.0, 1.2, 1.9, 3.5], requires_grad=True)
rest = 1.0
k = torch.tensor([10.0, 8.0, 12.0])


def energy(p):
    d = p[1:] - p[:-1]
    return 0.5 * (k * (d - rest) ** 2).sum()


vel = torch.zeros(4)
dt = 0.05
for step in range(4):
    E = energy(pos)
    (f,) = torch.autograd.grad(E, pos)
    force = -f
    with torch.no_grad():
        pos += vel * dt + 0.5 * force * dt ** 2
    E2 = energy(pos)
    (f2,) = torch.autograd.grad(E2, pos)
    vel = vel + 0.5 * (force - f2) * dt
    print(step, round(E.item(), 6), pos.detach(), vel)
H = torch.autograd.functional.hessian(energy, pos.detach())
print(H)
print(torch.linalg.eigvalsh(H).round(decimals=6))
