import math
import torch
import torch.nn as nn

# -u'' = pi^2 sin(pi x) on [0,1], u(0)=u(1)=0  ->  u = sin(pi x)


class MLP(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 1))

    def forward(self, x):
        return self.net(x)


model = MLP()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 1.3 + i).reshape(p.shape))

x = torch.linspace(0, 1, 33).unsqueeze(-1).requires_grad_(True)
xb = torch.tensor([[0.0], [1.0]])
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def residual(x):
    u = model(x)
    du = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    d2u = torch.autograd.grad(du, x, grad_outputs=torch.ones_like(du), create_graph=True)[0]
    return -d2u - math.pi ** 2 * torch.sin(math.pi * x)


for step in range(301):
    opt.zero_grad()
    r = residual(x)
    loss = r.pow(2).mean() + 10 * model(xb).pow(2).mean()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(step, f"{loss.item():.5f}")
xt = torch.linspace(0, 1, 5).unsqueeze(1)
with torch.no_grad():
    print(model(xt).squeeze(1))
print(torch.sin(math.pi * xt).squeeze(1))
print(x.grad is None, r.grad_fn is not None, r.shape)
