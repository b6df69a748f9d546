# A neural ODE without torchdiffeq: dynamics net f(t, z), a hand-written fixed-step RK4
# integrator in a loop, backprop through the unrolled solver to fit a spiral trajectory;
# the same solve with torch.func.jacrev for the sensitivity of the end state to z0
import torch
import torch.nn as nn


class Dyn(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 10), nn.Tanh(), nn.Linear(10, 2))

    def forward(self, t, z):
        tt = t.expand(z.shape[0], 1)
        return self.net(torch.cat([z, tt], dim=1))


def rk4(f, z0, ts):
    zs = [z0]
    z = z0
    for i in range(len(ts) - 1):
        t, h = ts[i], ts[i + 1] - ts[i]
        k1 = f(t, z)
        k2 = f(t + h / 2, z + h / 2 * k1)
        k3 = f(t + h / 2, z + h / 2 * k2)
        k4 = f(t + h, z + h * k3)
        z = z + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        zs.append(z)
    return torch.stack(zs)


f = Dyn()
with torch.no_grad():
    for i, p in enumerate(f.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 0.45 + i).view_as(p) * 0.3)
ts = torch.linspace(0, 1, 6)
true = torch.stack([torch.exp(-0.3 * ts) * torch.cos(2 * ts), torch.exp(-0.3 * ts) * torch.sin(2 * ts)], 1)
z0 = torch.tensor([[1.0, 0.0]])
opt = torch.optim.Adam(f.parameters(), lr=0.05)
for it in range(4):
    pred = rk4(f, z0, ts).squeeze(1)
    loss = (pred - true).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}", pred[-1].detach().numpy().round(5))
J = torch.func.jacrev(lambda z: rk4(f, z.unsqueeze(0), ts)[-1, 0])(z0[0])
print(J.detach().numpy().round(5), J.shape)
