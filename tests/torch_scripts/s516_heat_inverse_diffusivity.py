import torch

n, steps = 30, 60
x = torch.linspace(0, 1, n)
dx = x[1] - x[0]
u0 = torch.exp(-((x - 0.4) ** 2) / 0.01)
dt = 2e-4


def simulate(kappa, u0):
    u = u0
    for _ in range(steps):
        lap = torch.roll(u, 1) - 2 * u + torch.roll(u, -1)
        lap = torch.cat([torch.zeros(1), lap[1:-1], torch.zeros(1)])
        u = u + dt * kappa * lap / dx ** 2
    return u


true_kappa = torch.tensor(0.8)
final = simulate(true_kappa, u0)
print(round(final.sum().item(), 6), round(final.max().item(), 6))
kappa = torch.tensor(0.3, requires_grad=True)
opt = torch.optim.Adam([kappa], lr=0.05)
for it in range(60):
    opt.zero_grad()
    loss = ((simulate(kappa, u0) - final) ** 2).sum()
    loss.backward()
    opt.step()
    if it % 20 == 0:
        print(it, round(loss.item(), 8), round(kappa.grad.item(), 6))
print(round(kappa.item(), 3))
# sensitivity of the final profile to the initial condition (adjoint of the scheme)
u0v = u0.clone().requires_grad_(True)
out = simulate(torch.tensor(0.8), u0v)
out[n // 2].backward()
print(u0v.grad.argmax().item(), round(u0v.grad.sum().item(), 6))
print(torch.nn.functional.conv1d(u0.view(1, 1, -1), torch.tensor([[[1.0, -2.0, 1.0]]])).shape)
