# The original WGAN recipe: critic trained n_critic times per generator step with RMSprop,
# weights clipped by p.data.clamp_(-c, c) after each critic step, Wasserstein estimate
# E[D(x)] - E[D(G(z))], generator loss -E[D(G(z))]; noise and data from NumPy
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(851)
netG = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
netD = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
for net in (netG, netD):
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(torch.from_numpy(rng.normal(0, 0.2, tuple(p.shape))))
optD = torch.optim.RMSprop(netD.parameters(), lr=5e-3)
optG = torch.optim.RMSprop(netG.parameters(), lr=5e-3)
clip, n_critic = 0.05, 3
one = torch.tensor(1.0)
mone = one * -1
for gen_iter in range(5):
    for p in netD.parameters():
        p.requires_grad = True
    for _ in range(n_critic):
        real = torch.from_numpy(rng.normal([2.0, -1.0], 0.3, (32, 2)))
        z = torch.from_numpy(rng.standard_normal((32, 2)))
        netD.zero_grad()
        errD_real = netD(real).mean()
        errD_real.backward(mone)
        with torch.no_grad():
            fake = netG(z)
        errD_fake = netD(fake).mean()
        errD_fake.backward(one)
        optD.step()
        for p in netD.parameters():
            p.data.clamp_(-clip, clip)
    for p in netD.parameters():
        p.requires_grad = False
    netG.zero_grad()
    z = torch.from_numpy(rng.standard_normal((32, 2)))
    errG = netD(netG(z)).mean()
    errG.backward(mone)
    optG.step()
    w_est = errD_real - errD_fake
    print(gen_iter, f"W {w_est.item():.6f} G {-errG.item():.6f}")
print(max(p.abs().max().item() for p in netD.parameters()) <= clip)
print(netG[2].bias.detach().numpy().round(5), netG[0].weight.grad[:2].numpy().round(6))
