import torch
import torch.nn as nn

torch.manual_seed(0)


class PINN(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1))
        for m in self.net:
            if isinstance(m, nn.Linear):
                nn.init.constant_(m.weight, 0.1)
                with torch.no_grad():
                    m.weight.add_(torch.linspace(-0.3, 0.3, m.weight.numel()).view_as(m.weight))
                nn.init.zeros_(m.bias)

    def forward(self, t, x):
        return self.net(torch.cat([t, x], dim=1))


model = PINN()
nu = 0.01 / torch.pi
t = torch.linspace(0, 1, 12).unsqueeze(1).requires_grad_(True)
x = torch.linspace(-1, 1, 12).unsqueeze(1).requires_grad_(True)


def residual(t, x):
    u = model(t, x)
    u_t = torch.autograd.grad(u, t, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_x = torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x, x, grad_outputs=torch.ones_like(u_x), create_graph=True)[0]
    return u_t + u * u_x - nu * u_xx


opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x0 = torch.linspace(-1, 1, 8).unsqueeze(1)
for step in range(6):
    opt.zero_grad()
    r = residual(t, x)
    ic = model(torch.zeros_like(x0), x0) + torch.sin(torch.pi * x0)
    bc = model(t, torch.ones_like(t)) ** 2 + model(t, -torch.ones_like(t)) ** 2
    loss = r.pow(2).mean() + ic.pow(2).mean() + bc.mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", f"{r.abs().max().item():.6f}")
print(t.grad is None, x.grad is None)
g = sum(p.grad.norm() ** 2 for p in model.parameters()).sqrt()
print(f"{g.item():.6f}")
