import math
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(1, 8)
        self.l2 = nn.Linear(8, 1)
    def forward(self, x):
        return self.l2(torch.tanh(self.l1(x)))

net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(0.3 * torch.cos(torch.arange(p.numel(), dtype=torch.float64) + i).view_as(p))

x = torch.linspace(0, 1, 16).unsqueeze(1).requires_grad_(True)
f = -(math.pi ** 2) * torch.sin(math.pi * x.detach())
opt = torch.optim.LBFGS(net.parameters(), lr=0.5, max_iter=10, history_size=5)

def residual():
    u = net(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
    bc = net(torch.tensor([[0.0], [1.0]]))
    return ((d2u - f) ** 2).mean() + (bc ** 2).mean()

def closure():
    opt.zero_grad()
    loss = residual()
    loss.backward()
    return loss

print(round(residual().item(), 4))
for _ in range(3):
    opt.step(closure)
print(residual().item() < 1.0)
xs = torch.tensor([[0.25], [0.5]])
print(net(xs).detach().shape)
