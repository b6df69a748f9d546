import torch
import torch.nn as nn


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
        with torch.no_grad():
            for i, p in enumerate(self.net.parameters()):
                p.copy_(0.2 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p))

    def forward(self, t, y):
        return self.net(y) + torch.stack([y[..., 1], -y[..., 0]], -1) * torch.cos(t)


def rk4(f, y0, ts):
    ys = [y0]
    y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        h = t1 - t0
        k1 = f(t0, y)
        k2 = f(t0 + h / 2, y + h * k1 / 2)
        k3 = f(t0 + h / 2, y + h * k2 / 2)
        k4 = f(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


func = ODEFunc()
ts = torch.linspace(0, 1, 11)
y0 = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
target = torch.stack([torch.stack([torch.cos(ts), -torch.sin(ts)], -1), torch.stack([torch.sin(ts), torch.cos(ts)], -1)], 1)
opt = torch.optim.RMSprop(func.parameters(), lr=1e-2, alpha=0.9)
for it in range(4):
    opt.zero_grad()
    traj = rk4(func, y0, ts)
    loss = nn.functional.mse_loss(traj, target)
    loss.backward()
    nn.utils.clip_grad_norm_(func.parameters(), 1.0)
    opt.step()
    print(it, traj.shape, f"{loss.item():.6f}")
y0r = y0.clone().requires_grad_(True)
final = rk4(func, y0r, ts)[-1]
J = torch.stack([torch.autograd.grad(final[:, i].sum(), y0r, retain_graph=True)[0] for i in range(2)])
print(J.round(decimals=5))
print(torch.autograd.functional.jacobian(lambda y: rk4(func, y, ts[:3])[-1], y0[0]).round(decimals=5))
