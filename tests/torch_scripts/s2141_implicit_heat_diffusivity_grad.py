import torch

n, steps, dt = 8, 10, 0.01
h = 1.0 / (n + 1)
xs = torch.linspace(h, 1 - h, n)
u0 = torch.sin(torch.pi * xs)
lap = (torch.diag(torch.full((n,), -2.0)) + torch.diag(torch.ones(n - 1), 1) + torch.diag(torch.ones(n - 1), -1)) / h ** 2

def simulate(kappa):
    A = torch.eye(n) - dt * kappa * lap
    u = u0
    for _ in range(steps):
        u = torch.linalg.solve(A, u)
    return u

with torch.no_grad():
    observed = simulate(torch.tensor(0.7))
kappa = torch.tensor(0.2, requires_grad=True)
for it in range(6):
    loss = ((simulate(kappa) - observed) ** 2).sum()
    g, = torch.autograd.grad(loss, kappa)
    H, = torch.autograd.grad(torch.autograd.grad(((simulate(kappa) - observed) ** 2).sum(), kappa, create_graph=True)[0], kappa)
    with torch.no_grad():
        kappa -= g / H
    print(it, f"{loss.item():.3e}", round(kappa.item(), 6))
decay = simulate(kappa).max() / u0.max()
print(round(decay.item(), 5))
