import torch


def lorenz(state, sigma=10.0, rho=28.0, beta=8.0 / 3.0):
    x, y, z = state.unbind(-1)
    return torch.stack([sigma * (y - x), x * (rho - z) - y, x * y - beta * z], dim=-1)


def rk4(f, y0, dt, steps):
    ys = [y0]
    y = y0
    for _ in range(steps):
        k1 = f(y)
        k2 = f(y + 0.5 * dt * k1)
        k3 = f(y + 0.5 * dt * k2)
        k4 = f(y + dt * k3)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


traj = rk4(lorenz, torch.tensor([1.0, 1.0, 1.0]), 0.01, 200)
print(traj.shape)
print(traj[::50].round(decimals=4))
batch = rk4(lorenz, torch.tensor([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0 + 1e-6]]), 0.01, 300)
sep = (batch[:, 0] - batch[:, 1]).norm(dim=-1)
print([f"{v:.3e}" for v in sep[::100].tolist()])
decay = rk4(lambda y: -y * torch.tensor([1.0, 2.0]), torch.ones(2), 0.1, 10)
print((decay[-1] - torch.exp(-torch.tensor([1.0, 2.0]))).abs().max() < 1e-5)
y0 = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
end = rk4(lorenz, y0, 0.01, 20)[-1]
end[2].backward()
print(y0.grad.round(decimals=4))
rho = torch.tensor(28.0, requires_grad=True)
end2 = rk4(lambda s: lorenz(s, rho=rho), torch.tensor([1.0, 1.0, 1.0]), 0.01, 20)[-1]
end2.sum().backward()
print(round(rho.grad.item(), 5))
osc = rk4(lambda s: torch.stack([s[1], -s[0]]), torch.tensor([1.0, 0.0]), 0.05, 126)
energy = (osc ** 2).sum(1)
print(round((energy.max() - energy.min()).item(), 10), osc[-1].round(decimals=4))
