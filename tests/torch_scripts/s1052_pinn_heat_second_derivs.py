# Physics-informed loss: u(x, t) by a tiny MLP, PDE residual u_t - k u_xx with create_graph
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1) / 3)

xt = torch.stack([torch.linspace(0, 1, 5), torch.linspace(0, 0.5, 5)], dim=1).requires_grad_(True)
u = net(xt)
du = torch.autograd.grad(u, xt, grad_outputs=torch.ones_like(u), create_graph=True)[0]
u_x, u_t = du[:, 0:1], du[:, 1:2]
u_xx = torch.autograd.grad(u_x, xt, torch.ones_like(u_x), create_graph=True)[0][:, 0:1]
res = u_t - 0.1 * u_xx
loss = (res ** 2).mean() + (u[0] - 1.0).pow(2).sum()
print(u_x.shape, u_xx.shape, res.grad_fn is not None)
print(round(loss.item(), 8))
u_xxx = torch.autograd.grad(u_xx.sum(), xt, retain_graph=True)[0]
print(u_xxx.shape, torch.round(u_xxx, decimals=6))
loss.backward()
print([round(p.grad.abs().sum().item(), 8) for p in net.parameters()])
