# A physics-informed network for u'' + w^2 u = 0 with u(0)=1, u'(0)=0: collocation points
# with requires_grad, first and second derivatives by autograd.grad(create_graph=True),
# residual + boundary losses, Adam steps; checking d2u against torch.func.hessian
import torch
import torch.nn as nn

w = 2.0
net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.7 + i).view_as(p) * 0.5)
tc = torch.linspace(0, 1.5, 12).unsqueeze(1).requires_grad_(True)
t0 = torch.zeros(1, 1, requires_grad=True)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for it in range(4):
    u = net(tc)
    du, = torch.autograd.grad(u, tc, torch.ones_like(u), create_graph=True)
    d2u, = torch.autograd.grad(du, tc, torch.ones_like(du), create_graph=True)
    res = (d2u + w ** 2 * u).pow(2).mean()
    u0 = net(t0)
    du0, = torch.autograd.grad(u0.sum(), t0, create_graph=True)
    bc = (u0 - 1).pow(2).sum() + du0.pow(2).sum()
    loss = res + 10 * bc
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(it, f"{res.item():.6f} {bc.item():.6f}")
h = torch.func.hessian(lambda s: net(s.view(1, 1)).squeeze())(tc[3].detach())
u = net(tc)
du, = torch.autograd.grad(u.sum(), tc, create_graph=True)
d2u, = torch.autograd.grad(du.sum(), tc)
print(torch.allclose(h.reshape(()), d2u[3, 0]), h.shape, tc.grad)
