import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 12), nn.Tanh(), nn.Linear(12, 12), nn.Tanh(), nn.Linear(12, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel()) * 0.91 + 0.3 * i).reshape(p.shape))
xs = torch.linspace(0, 1, 6)
ts = torch.linspace(0, 0.5, 4)
X, T = torch.meshgrid(xs, ts, indexing="ij")
pts = torch.stack([X.flatten(), T.flatten()], 1).requires_grad_(True)


def residual(pts):
    u = net(pts)
    du = torch.autograd.grad(u, pts, torch.ones_like(u), create_graph=True)[0]
    u_x, u_t = du[:, 0:1], du[:, 1:2]
    u_xx = torch.autograd.grad(u_x, pts, torch.ones_like(u_x), create_graph=True)[0][:, 0:1]
    return u_t - 0.1 * u_xx


opt = torch.optim.Adam(net.parameters(), lr=5e-3)
bc = torch.stack([xs, torch.zeros(6)], 1)
for it in range(25):
    opt.zero_grad()
    loss = residual(pts).pow(2).mean() + (net(bc).squeeze() - torch.sin(torch.pi * xs)).pow(2).mean()
    loss.backward()
    opt.step()
    if it % 8 == 0:
        print(it, f"{loss.item():.6f}")
r = residual(pts)
print(r.shape, r.grad_fn.name(), round(r.abs().max().item(), 5))
H = torch.autograd.functional.hessian(lambda p: net(p).sum(), pts[:1].detach())
print(H.shape, H.reshape(2, 2).round(decimals=5))
