import math
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * (0.7 + i)).reshape(p.shape))
nu = 0.01 / math.pi
xt = torch.stack(torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(0, 1, 5), indexing="ij"), -1).reshape(-1, 2)
xt.requires_grad_(True)

def residual(xt):
    u = net(xt)
    du = torch.autograd.grad(u.sum(), xt, create_graph=True)[0]
    u_x, u_t = du[:, :1], du[:, 1:]
    u_xx = torch.autograd.grad(u_x.sum(), xt, create_graph=True)[0][:, :1]
    return u_t + u * u_x - nu * u_xx

x0 = torch.linspace(-1, 1, 11).unsqueeze(1)
ic = torch.cat([x0, torch.zeros_like(x0)], 1)
bc = torch.tensor([[-1.0, 0.5], [1.0, 0.5], [-1.0, 1.0], [1.0, 1.0]])
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for step in range(40):
    opt.zero_grad()
    r = residual(xt)
    loss = (r ** 2).mean() + ((net(ic) + torch.sin(math.pi * x0)) ** 2).mean() + (net(bc) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 6))
print(round(loss.item(), 6), r.shape, r.requires_grad)
g = torch.autograd.grad(residual(xt).pow(2).mean(), net[0].weight)[0]
print(g.shape, round(g.norm().item(), 6))
