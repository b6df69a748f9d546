# Physics with autograd: forces as -grad of a Lennard-Jones potential, velocity Verlet, energy drift
import torch

torch.set_printoptions(precision=5, sci_mode=False)


def lj_energy(pos, eps=1.0, sigma=1.0):
    diff = pos.unsqueeze(0) - pos.unsqueeze(1)
    r2 = (diff ** 2).sum(-1)
    n = pos.shape[0]
    iu = torch.triu_indices(n, n, offset=1)
    r2 = r2[iu[0], iu[1]]
    inv6 = (sigma ** 2 / r2) ** 3
    return (4 * eps * (inv6 ** 2 - inv6)).sum()


def forces(pos):
    pos = pos.detach().requires_grad_(True)
    E = lj_energy(pos)
    (g,) = torch.autograd.grad(E, pos)
    return -g, E.detach()


pos = torch.tensor([[0.0, 0.0], [1.15, 0.0], [0.5, 1.0], [1.6, 1.05]])
vel = torch.zeros_like(pos)
mass, dt = 1.0, 0.005
f, E0 = forces(pos)
print("initial energy", E0)
print("initial forces", f)
print("net force ~ 0:", torch.allclose(f.sum(0), torch.zeros(2), atol=1e-12))
for step in range(200):
    vel = vel + 0.5 * dt * f / mass
    pos = pos + dt * vel
    f, E = forces(pos)
    vel = vel + 0.5 * dt * f / mass
    if step % 50 == 49:
        KE = 0.5 * mass * (vel ** 2).sum()
        print(f"step {step + 1}: PE={E.item():.6f} KE={KE.item():.6f} total={(E + KE).item():.6f}")
print(pos)
com = pos.mean(dim=0)
print("center of mass", com, "momentum", (mass * vel).sum(0).abs().max() < 1e-10)
# Hessian of the energy = stiffness matrix at the final configuration
H = torch.autograd.functional.hessian(lambda p: lj_energy(p.view(4, 2)), pos.reshape(-1))
print(H.shape, torch.allclose(H, H.T), torch.linalg.eigvalsh(H)[:3].abs().max() < 1e-6)
