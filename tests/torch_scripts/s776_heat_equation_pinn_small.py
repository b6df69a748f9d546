# Tiny PINN for u'' = -pi^2 sin(pi x) on [0, 1], u(0) = u(1) = 0: second derivatives with
# autograd.grad(create_graph=True), collocation points from linspace, Adam then LBFGS
import math
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(1, 10), nn.Tanh(), nn.Linear(10, 10), nn.Tanh(), nn.Linear(10, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.5 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 1.3 + i).view_as(p))
x = torch.linspace(0, 1, 25).view(-1, 1).requires_grad_(True)
xb = torch.tensor([[0.0], [1.0]])


def pde_loss():
    u = net(x)
    du = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    d2u = torch.autograd.grad(du, x, grad_outputs=torch.ones_like(du), create_graph=True)[0]
    res = d2u + math.pi ** 2 * torch.sin(math.pi * x)
    return (res ** 2).mean() + (net(xb) ** 2).mean()


opt = torch.optim.Adam(net.parameters(), lr=0.01)
for it in range(100):
    opt.zero_grad()
    loss = pde_loss()
    loss.backward()
    opt.step()
    if it % 50 == 0:
        print(f"adam {it}: {loss.item():.6f}")
lbfgs = torch.optim.LBFGS(net.parameters(), lr=1.0, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    l = pde_loss()
    l.backward()
    return l


for _ in range(2):
    lbfgs.step(closure)
final = pde_loss().item()
print(f"lbfgs: {final:.3e}" if final > 1e-4 else "lbfgs: converged below 1e-4")
with torch.no_grad():
    xt = torch.linspace(0, 1, 5).view(-1, 1)
    err = (net(xt) - torch.sin(math.pi * xt)).abs().max().item()
print("max error below 1e-2:", err < 1e-2)
