import math
import torch
import torch.nn as nn

class Planar(nn.Module):
    def __init__(self, d, k):
        super().__init__()
        self.u = nn.Parameter(torch.linspace(-0.5, 0.5, d) * k)
        self.w = nn.Parameter(torch.linspace(0.3, -0.2, d) + 0.1 * k)
        self.b = nn.Parameter(torch.tensor(0.1 * k))
    def forward(self, z):
        wu = self.w @ self.u
        u_hat = self.u + (nn.functional.softplus(wu) - 1 - wu) * self.w / (self.w ** 2).sum()
        a = z @ self.w + self.b
        f = z + u_hat * torch.tanh(a).unsqueeze(-1)
        psi = (1 - torch.tanh(a) ** 2).unsqueeze(-1) * self.w
        logdet = torch.log((1 + psi @ u_hat).abs() + 1e-8)
        return f, logdet

flows = nn.ModuleList([Planar(2, k) for k in range(4)])
def target_logp(z):
    r = z.norm(dim=-1)
    return -0.5 * ((r - 2.0) / 0.4) ** 2
base = torch.stack([torch.cos(torch.linspace(0, 6.0, 64)), torch.sin(torch.linspace(0, 12.0, 64))], 1) * 0.8
opt = torch.optim.Adam(flows.parameters(), lr=0.02)
for step in range(60):
    z = base
    logq = -0.5 * (z ** 2).sum(1) - math.log(2 * math.pi)
    for fl in flows:
        z, ld = fl(z)
        logq = logq - ld
    loss = (logq - target_logp(z)).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0 or step == 59:
        print(step, round(loss.item(), 5))
print(z.shape, z.norm(dim=1).mean().round(decimals=3))
x = torch.tensor([[0.5, -0.5]], requires_grad=True)
f, ld = flows[0](x)
J = torch.autograd.functional.jacobian(lambda v: flows[0](v)[0], x)
print(torch.allclose(torch.logdet(J.reshape(2, 2)), ld.squeeze(), atol=1e-6))
print(sum(p.numel() for p in flows.parameters()), [round(p.grad.norm().item(), 5) for p in flows[0].parameters()])
