import torch
import torch.nn as nn

# Sobolev training: fit f(x) = sin(2x) and its derivative together.
x = torch.linspace(-1.5, 1.5, 25).unsqueeze(1)
f = torch.sin(2 * x)
df = 2 * torch.cos(2 * x)
net = nn.Sequential(nn.Linear(1, 10), nn.Softplus(), nn.Linear(10, 10), nn.Tanh(), nn.Linear(10, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.6 * torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 1.1 + 0.5 * i).view_as(p))
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for step in range(80):
    xi = x.clone().requires_grad_(True)
    pred = net(xi)
    dpred, = torch.autograd.grad(pred.sum(), xi, create_graph=True)
    loss_f = ((pred - f) ** 2).mean()
    loss_d = ((dpred - df) ** 2).mean()
    loss = loss_f + 0.5 * loss_d
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(step, round(loss_f.item(), 5), round(loss_d.item(), 5))
# gradient penalty style: norm of input gradient pushed to 1
xi = x.clone().requires_grad_(True)
out = net(xi)
g, = torch.autograd.grad(out, xi, grad_outputs=torch.ones_like(out), create_graph=True)
pen = ((g.norm(2, dim=1) - 1) ** 2).mean()
pen.backward()
print(round(pen.item(), 5), net[0].weight.grad.shape, g.requires_grad, g.grad_fn is not None)
print(sorted({type(m).__name__ for m in net.modules()}))
