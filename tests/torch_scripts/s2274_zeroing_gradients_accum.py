import torch
import torch.nn as nn
import torch.optim as optim

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.linspace(-0.3, 0.4, p.numel()).view_as(p))
opt = optim.SGD(net.parameters(), lr=0.1)
x = torch.linspace(-1, 1, 24).view(8, 3)
y = x.sum(1, keepdim=True)
print(net[0].weight.grad)
net(x).sum().backward()
g1 = net[0].weight.grad.clone()
net(x).sum().backward()
print(torch.allclose(net[0].weight.grad, 2 * g1))
opt.zero_grad()
print(net[0].weight.grad)
opt.zero_grad(set_to_none=False)
net(x).sum().backward()
opt.zero_grad(set_to_none=False)
print(net[0].weight.grad)
accum = 4
for i, (xb, yb) in enumerate(zip(x.split(2), y.split(2))):
    loss = nn.functional.mse_loss(net(xb), yb) / accum
    loss.backward()
    if (i + 1) % accum == 0:
        opt.step()
        opt.zero_grad()
print(net[0].weight.grad, [round(v, 5) for v in net[2].weight.detach().flatten().tolist()])
ref = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for p in ref.parameters():
        p.copy_(torch.linspace(-0.3, 0.4, p.numel()).view_as(p))
o2 = optim.SGD(ref.parameters(), lr=0.1)
nn.functional.mse_loss(ref(x), y).backward()
o2.step()
print(all(torch.allclose(a, b) for a, b in zip(net.parameters(), ref.parameters())))
net.zero_grad()
print(all(p.grad is None for p in net.parameters()))
