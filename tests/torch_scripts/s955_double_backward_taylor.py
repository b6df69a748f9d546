# higher derivatives of a scalar function by repeated autograd.grad; Laplacian of a network
import torch
import torch.nn as nn

x = torch.tensor(0.5, requires_grad=True)
y = torch.exp(x) * torch.sin(3 * x)
ds = [y]
for _ in range(4):
    ds.append(torch.autograd.grad(ds[-1], x, create_graph=True)[0])
print([round(d.item(), 6) for d in ds])
net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for k, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.3 + k).reshape(p.shape))
pts = torch.tensor([[0.1, 0.2], [0.5, -0.3]], requires_grad=True)
u = net(pts)
du = torch.autograd.grad(u.sum(), pts, create_graph=True)[0]
lap = sum(torch.autograd.grad(du[:, i].sum(), pts, create_graph=True)[0][:, i] for i in range(2))
print(du.round(decimals=6), lap.round(decimals=6))
lap.sum().backward()
print(net[2].bias.grad, net[0].bias.grad.round(decimals=6))
