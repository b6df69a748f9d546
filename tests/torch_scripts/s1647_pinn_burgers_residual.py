# Physics-informed network for u_t + u u_x = nu u_xx: residual via autograd.grad with
# create_graph=True, initial and boundary losses, Adam then a few LBFGS steps
import math
import numpy as np
import torch
import torch.nn as nn

nu = 0.01 / math.pi


class PINN(nn.Module):
    def __init__(self, width=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width),
                                 nn.Tanh(), nn.Linear(width, 1))

    def forward(self, t, x):
        return self.net(torch.cat([t, x], dim=1))


model = PINN()
g = np.random.default_rng(4)
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(g.uniform(-0.6, 0.6, tuple(p.shape))))

pts = np.random.default_rng(9).uniform([0, -1], [1, 1], size=(30, 2))
t_f = torch.tensor(pts[:, :1], requires_grad=True)
x_f = torch.tensor(pts[:, 1:], requires_grad=True)
x0 = torch.linspace(-1, 1, 11).view(-1, 1)
t0 = torch.zeros_like(x0)
u0 = -torch.sin(math.pi * x0)
tb = torch.linspace(0, 1, 6).view(-1, 1)


def residual():
    u = model(t_f, x_f)
    u_t, u_x = torch.autograd.grad(u, (t_f, x_f), torch.ones_like(u), create_graph=True)
    u_xx = torch.autograd.grad(u_x, x_f, torch.ones_like(u_x), create_graph=True)[0]
    return u_t + u * u_x - nu * u_xx


def total_loss():
    f = residual()
    l_f = f.pow(2).mean()
    l_0 = (model(t0, x0) - u0).pow(2).mean()
    l_b = model(tb, torch.ones_like(tb)).pow(2).mean() + model(tb, -torch.ones_like(tb)).pow(2).mean()
    return l_f + l_0 + l_b, (l_f, l_0, l_b)


opt = torch.optim.Adam(model.parameters(), lr=5e-3)
for it in range(6):
    opt.zero_grad()
    loss, parts = total_loss()
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}", [f"{p.item():.5f}" for p in parts])

lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=5, history_size=5,
                          line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    loss, _ = total_loss()
    loss.backward()
    return loss


for k in range(2):
    l = lbfgs.step(closure)
    print("lbfgs", k, f"{l.item():.6f}")
print("final", f"{total_loss()[0].item():.6f}")
print(model(torch.tensor([[0.5]]), torch.tensor([[0.25]])).detach().numpy().round(5))
