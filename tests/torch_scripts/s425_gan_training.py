import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 2))
Dn = nn.Sequential(nn.Linear(2, 8), nn.ELU(), nn.Linear(8, 1))
for i, p in enumerate(list(G.parameters()) + list(Dn.parameters())):
    p.data.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).view_as(p) * 0.4)
og = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
od = torch.optim.Adam(Dn.parameters(), lr=2e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
real = torch.stack([torch.cos(torch.arange(16.0)), torch.sin(torch.arange(16.0))], 1)
noise = torch.cos(torch.arange(32.0) * 1.7).view(16, 2)
for step in range(4):
    fake = G(noise)
    ld = bce(Dn(real), torch.ones(16, 1)) + bce(Dn(fake.detach()), torch.zeros(16, 1))
    od.zero_grad()
    ld.backward()
    od.step()
    lg = bce(Dn(fake), torch.ones(16, 1))
    og.zero_grad()
    lg.backward()
    og.step()
    print(step, f"{ld.item():.5f}", f"{lg.item():.5f}")
alpha = torch.linspace(0, 1, 16).view(16, 1)
inter = (alpha * real + (1 - alpha) * G(noise).detach()).requires_grad_(True)
out = Dn(inter)
grad = torch.autograd.grad(out, inter, torch.ones_like(out), create_graph=True, retain_graph=True)[0]
gp = ((grad.norm(2, dim=1) - 1) ** 2).mean()
gp.backward()
print(round(gp.item(), 6), Dn[0].weight.grad.norm().round(decimals=5))
