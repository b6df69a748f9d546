# explicit finite-difference heat equation; gradient of the final temperature w.r.t. diffusivity
import torch

n = 8
u = torch.zeros(n)
u[n // 2] = 1.0
kappa = torch.tensor(0.2, requires_grad=True)
for _ in range(20):
    lap = torch.zeros_like(u)
    lap[1:-1] = u[2:] - 2 * u[1:-1] + u[:-2]
    u = u + kappa * lap
print(torch.round(u, decimals=6))
u[n // 2].backward()
print(round(kappa.grad.item(), 8), round(u.sum().item(), 8))
