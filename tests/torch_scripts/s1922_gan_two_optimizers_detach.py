# A minimal GAN on 1-D data, as a tutorial trains it: generator and discriminator with
# their own Adam optimizers (betas 0.5, 0.999), fake.detach() for the D step, real/fake
# labels with BCEWithLogitsLoss, and checking which parameters received gradients
import torch
import torch.nn as nn

G = nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
D = nn.Sequential(nn.Linear(1, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
for k, m in enumerate([G, D]):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.7 + i + 3 * k).view_as(p) * 0.5)
optG = torch.optim.Adam(G.parameters(), lr=0.01, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=0.01, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
real = (torch.linspace(-1, 1, 8) * 0.5 + 2.0).unsqueeze(1)
for step in range(4):
    z = torch.stack([torch.sin(torch.arange(8.0) + step), torch.cos(torch.arange(8.0) * 2)], 1)
    fake = G(z)
    optD.zero_grad()
    d_loss = crit(D(real), torch.ones(8, 1)) + crit(D(fake.detach()), torch.zeros(8, 1))
    d_loss.backward()
    g_has = [p.grad is None for p in G.parameters()]
    optD.step()
    optG.zero_grad()
    g_loss = crit(D(fake), torch.ones(8, 1))
    g_loss.backward()
    optG.step()
    print(step, f"{d_loss.item():.6f} {g_loss.item():.6f}", all(g_has) if step == 0 else "",
          f"{fake.mean().item():.5f}")
print(D[0].weight.grad is not None, fake.requires_grad, fake.detach().requires_grad)
print(optD.state_dict()["param_groups"][0]["betas"], len(optG.state))
