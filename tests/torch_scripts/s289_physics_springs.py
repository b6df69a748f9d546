import torch

# Mass-spring chain: forces from the autograd gradient of the potential,
# velocity Verlet integration, energy drift check.
n = 4
k = torch.tensor([10.0, 12.0, 8.0, 15.0, 9.0])
rest = 1.0
mass = torch.tensor([1.0, 2.0, 1.5, 1.0])


def potential(x):
    # walls at 0 and n+1
    pos = torch.cat([torch.zeros(1), x, torch.tensor([n + 1.0])])
    stretch = pos[1:] - pos[:-1] - rest
    return 0.5 * (k * stretch ** 2).sum()


def force(x):
    x = x.detach().requires_grad_(True)
    U = potential(x)
    (g,) = torch.autograd.grad(U, x)
    return -g, U.detach()


x = torch.tensor([1.1, 2.0, 2.9, 4.05])
v = torch.zeros(n)
dt = 0.01
F, U = force(x)
E0 = (0.5 * mass * v ** 2).sum() + U
for step in range(200):
    v = v + 0.5 * dt * F / mass
    x = x + dt * v
    F, U = force(x)
    v = v + 0.5 * dt * F / mass
    if step % 50 == 49:
        E = (0.5 * mass * v ** 2).sum() + U
        print(step + 1, [round(c, 5) for c in x.tolist()], f"{E.item():.6f}")
E = (0.5 * mass * v ** 2).sum() + U
print("drift", abs((E - E0).item()) < 1e-3)

# normal modes: Hessian of the potential, mass weighted
H = torch.autograd.functional.hessian(potential, torch.arange(1.0, n + 1))
Minv = torch.diag(mass.rsqrt())
w2 = torch.linalg.eigvalsh(Minv @ H @ Minv)
print([round(v, 5) for v in w2.sqrt().tolist()])

# sensitivity of the final position to the spring constants (differentiable simulation)
kk = k.clone().requires_grad_(True)
x = torch.tensor([1.1, 2.0, 2.9, 4.05])
v = torch.zeros(n)
for step in range(50):
    pos = torch.cat([torch.zeros(1), x, torch.tensor([n + 1.0])])
    s = pos[1:] - pos[:-1] - rest
    f = kk[:-1] * s[:-1] - kk[1:] * s[1:]
    v = v + dt * f / mass
    x = x + dt * v
x.sum().backward()
print([round(v, 6) for v in kk.grad.tolist()])
