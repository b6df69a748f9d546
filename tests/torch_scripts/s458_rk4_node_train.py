import torch
import torch.nn as nn


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
        with torch.no_grad():
            for i, p in enumerate(self.net.parameters()):
                p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * (i + 1)).view_as(p))

    def forward(self, t, y):
        return self.net(y) + torch.stack([-y[..., 1], y[..., 0]], -1) * torch.cos(t)


def rk4(f, y0, ts):
    ys = [y0]
    y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        h = t1 - t0
        k1 = f(t0, y)
        k2 = f(t0 + h / 2, y + h / 2 * k1)
        k3 = f(t0 + h / 2, y + h / 2 * k2)
        k4 = f(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


func = ODEFunc()
ts = torch.linspace(0, 1, 11)
y0 = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
target = torch.stack([torch.cos(ts), torch.sin(ts)], -1).unsqueeze(1).expand(-1, 2, -1)
opt = torch.optim.Adam(func.parameters(), lr=0.01)
for it in range(3):
    opt.zero_grad()
    traj = rk4(func, y0, ts)
    loss = (traj - target).pow(2).mean()
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(func.parameters(), 10.0)
    opt.step()
    print(it, traj.shape, round(loss.item(), 6), round(gn.item(), 6))
y0r = y0.clone().requires_grad_(True)
yT = rk4(func, y0r, ts)[-1]
J = torch.stack([torch.autograd.grad(yT[:, k].sum(), y0r, retain_graph=True)[0] for k in range(2)])
print(J.round(decimals=5))
