import math
import torch

torch.set_printoptions(precision=5, sci_mode=False)
pos = torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.2, 0.0], [0.3, 0.4, 0.9]], requires_grad=True)
mass = torch.tensor([3.0, 1.0, 1.0, 0.5])
G, soft = 1.0, 0.01


def energy(p):
    diff = p[:, None, :] - p[None, :, :]
    r = torch.sqrt((diff ** 2).sum(-1) + soft ** 2)
    mm = mass[:, None] * mass[None, :]
    iu = torch.triu_indices(len(mass), len(mass), offset=1)
    return -(G * mm / r)[iu[0], iu[1]].sum()


U = energy(pos)
U.backward()
F = -pos.grad
print(round(U.item(), 6))
print(F)
print("net force", F.sum(0).abs().max().item() < 1e-12)
# Analytic forces for comparison
with torch.no_grad():
    d = pos[None, :, :] - pos[:, None, :]
    r3 = ((d ** 2).sum(-1) + soft ** 2) ** 1.5
    Fa = (G * mass[:, None, None] * mass[None, :, None] * d / r3[..., None]).sum(1)
print(torch.allclose(F, Fa), (F - Fa).abs().max() < 1e-12)
# Virial-like quantity and torque about origin
torque = torch.linalg.cross(pos.detach(), F).sum(0)
print(torque.abs().max() < 1e-12)
print(torch.cdist(pos.detach(), pos.detach()).round(decimals=3))
print(math.isclose(pos.grad.norm().item(), F.norm().item()))
