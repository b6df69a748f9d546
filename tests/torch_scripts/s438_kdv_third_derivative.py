import torch
import torch.nn as nn


class PINN(nn.Module):
    def __init__(self, width=6):
        super().__init__()
        self.inp = nn.Linear(2, width)
        self.hid = nn.Linear(width, width)
        self.out = nn.Linear(width, 1)
        with torch.no_grad():
            for k, p in enumerate(self.parameters()):
                p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.7 + k).reshape(p.shape))

    def forward(self, x, t):
        h = torch.tanh(self.inp(torch.cat([x, t], dim=1)))
        h = torch.sin(self.hid(h))
        return self.out(h)


def d(y, x):
    return torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]


net = PINN()
x = torch.linspace(-1, 1, 7).unsqueeze(1).requires_grad_(True)
t = torch.full_like(x, 0.25).requires_grad_(True)
u = net(x, t)
u_t, u_x = d(u, t), d(u, x)
u_xx = d(u_x, x)
u_xxx = d(u_xx, x)
residual = u_t + 6 * u * u_x + u_xxx
loss = residual.pow(2).mean()
print(u_xxx.detach().squeeze().round(decimals=6))
print(round(loss.item(), 8))
g3 = torch.autograd.grad(u_xxx.sum(), x, retain_graph=True)[0]
loss.backward()
for name, p in net.named_parameters():
    print(name, tuple(p.grad.shape), round(p.grad.norm().item(), 6))
print(g3.squeeze().round(decimals=5))
