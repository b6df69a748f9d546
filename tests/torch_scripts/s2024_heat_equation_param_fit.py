import torch

# recover a diffusion coefficient from a final temperature profile
nx, nt = 21, 60
x = torch.linspace(0, 1, nx)
u0 = torch.sin(torch.pi * x)
dx = x[1] - x[0]

def solve(D):
    u = u0.clone()
    dt = 0.2 * dx ** 2
    for _ in range(nt):
        lap = torch.zeros_like(u)
        lap[1:-1] = (u[2:] - 2 * u[1:-1] + u[:-2]) / dx ** 2
        u = u + dt * D * lap
    return u

true = solve(torch.tensor(0.8))
D = torch.tensor(0.3, requires_grad=True)
opt = torch.optim.RMSprop([D], lr=0.05, alpha=0.9)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
for it in range(12):
    opt.zero_grad()
    loss = ((solve(D) - true) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    if it % 3 == 0:
        print(it, f"{loss.item():.4e}", round(D.item(), 5), round(opt.param_groups[0]["lr"], 6))
print(round(D.item(), 4), D.grad is not None, solve(D).shape)
