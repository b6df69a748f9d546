import torch

# A chain of 5 masses joined by springs; forces come from autograd of the potential.
n = 5
k = torch.tensor([4.0, 3.0, 2.5, 3.5])
rest = 1.0
m = torch.tensor([1.0, 2.0, 1.5, 1.0, 0.5])


def potential(x):
    stretch = x[1:] - x[:-1] - rest
    return 0.5 * (k * stretch ** 2).sum()


def force(x):
    x = x.detach().requires_grad_(True)
    u = potential(x)
    (g,) = torch.autograd.grad(u, x)
    return -g


x = torch.arange(n, dtype=torch.float64) * 1.1
x[2] += 0.2
v = torch.zeros(n)
dt = 0.05
energies = []
f = force(x)
for step in range(200):
    v = v + 0.5 * dt * f / m
    x = x + dt * v
    f = force(x)
    v = v + 0.5 * dt * f / m
    if step % 50 == 0:
        e = potential(x) + 0.5 * (m * v ** 2).sum()
        energies.append(round(e.item(), 6))
print(energies)
print("momentum", round((m * v).sum().item(), 10))
print("centre of mass", round(((m * x).sum() / m.sum()).item(), 6))
print(x)
# Hessian of the potential is the stiffness matrix
H = torch.autograd.functional.hessian(potential, x)
print(H)
evals = torch.linalg.eigvalsh(H)
print(evals[0].abs() < 1e-10, evals[1:].round(decimals=4))
print(torch.allclose(H, H.T), H.sum(dim=1).abs().max() < 1e-12)
