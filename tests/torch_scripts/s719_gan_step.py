import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 4), nn.LeakyReLU(0.2), nn.Linear(4, 2))
D = nn.Sequential(nn.Linear(2, 4), nn.LeakyReLU(0.2), nn.Linear(4, 1))
for k, m in enumerate((G, D)):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * (0.5 + k) + i).reshape(p.shape) * 0.5)
optG = torch.optim.Adam(G.parameters(), lr=0.01, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=0.01, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
z = torch.tensor([[0.1, -0.3], [0.5, 0.2], [-1.0, 0.7]])
real = torch.tensor([[1.0, 1.0], [1.2, 0.8], [0.9, 1.1]])
for step in range(3):
    optD.zero_grad()
    fake = G(z)
    lossD = bce(D(real), torch.ones(3, 1)) + bce(D(fake.detach()), torch.zeros(3, 1))
    lossD.backward()
    optD.step()
    optG.zero_grad()
    lossG = bce(D(fake), torch.ones(3, 1))
    lossG.backward()
    optG.step()
    print(step, round(lossD.item(), 6), round(lossG.item(), 6))
print(G(z).detach().round(decimals=5))
print(all(p.grad is not None for p in D.parameters()), D[0].weight.grad.abs().sum().round(decimals=6))
