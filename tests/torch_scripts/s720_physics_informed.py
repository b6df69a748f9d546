import torch
import torch.nn as nn

# fit u(x) with u'' = -sin(x), u(0) = u(pi) = 0 (a PINN): gradients of gradients w.r.t. inputs
net = nn.Sequential(nn.Linear(1, 6), nn.Tanh(), nn.Linear(6, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 1.1 + i).reshape(p.shape) * 0.6)
opt = torch.optim.Adam(net.parameters(), lr=0.02)
x = torch.linspace(0.1, 3.0, 8).unsqueeze(1).requires_grad_(True)
bc = torch.tensor([[0.0], [torch.pi]])
for it in range(4):
    opt.zero_grad()
    u = net(x)
    du = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)[0]
    d2u = torch.autograd.grad(du, x, torch.ones_like(du), create_graph=True)[0]
    residual = d2u + torch.sin(x)
    loss = residual.pow(2).mean() + net(bc).pow(2).mean()
    loss.backward()
    opt.step()
    print(it, round(loss.item(), 6))
print(du.detach().flatten().round(decimals=4))
print(net[0].weight.grad.flatten().round(decimals=5))
