import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 2))
D = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
for net, s in ((G, 0.0), (D, 1.0)):
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 0.77 + i + s).reshape(p.shape))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
ang = torch.linspace(0, 6.2, 16)
real = torch.stack([torch.cos(ang), torch.sin(ang)], 1) * 2
noise = torch.stack([torch.sin(3 * ang), torch.cos(5 * ang)], 1)
ones, zeros = torch.ones(16, 1), torch.zeros(16, 1)
for step in range(40):
    fake = G(noise)
    optD.zero_grad()
    lossD = crit(D(real), ones) + crit(D(fake.detach()), zeros)
    lossD.backward()
    optD.step()
    optG.zero_grad()
    lossG = crit(D(fake), ones)
    lossG.backward()
    optG.step()
    if step % 10 == 9:
        print(step, f"D={lossD.item():.4f} G={lossG.item():.4f}")
print(all(p.grad is not None for p in G.parameters()), D[0].weight.grad.shape)
print(G(noise[:3]).detach().round(decimals=4))
print(len(optD.state), optG.state_dict()["param_groups"][0]["betas"])
for p in D.parameters():
    p.requires_grad_(False)
out = D(G(noise)).mean()
out.backward()
print(D[0].weight.grad is not None, G[0].weight.grad.abs().sum() > 0, out.requires_grad)
