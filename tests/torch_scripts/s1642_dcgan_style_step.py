# One-dimensional GAN in the style of the DCGAN tutorial: generator/discriminator modules,
# BCELoss with real/fake labels, separate Adam optimizers with betas, D then G updates
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

rng = np.random.default_rng(3)
REAL = rng.normal(2.0, 0.5, size=(6, 32, 1))
NOISE = rng.standard_normal((6, 32, 4))


class Generator(nn.Module):
    def __init__(self, nz=4):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(1, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1),
                                  nn.Sigmoid())

    def forward(self, x):
        return self.main(x).view(-1)


def weights_init(m):
    if isinstance(m, nn.Linear):
        w = np.cos(np.arange(m.weight.numel()) * 0.7).reshape(tuple(m.weight.shape))
        with torch.no_grad():
            m.weight.copy_(torch.from_numpy(w * 0.4))
        nn.init.constant_(m.bias, 0.05)


netG, netD = Generator(), Discriminator()
netG.apply(weights_init)
netD.apply(weights_init)
criterion = nn.BCELoss()
optD = optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optG = optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
real_label, fake_label = 1.0, 0.0

for i in range(6):
    real = torch.from_numpy(REAL[i])
    b = real.size(0)
    netD.zero_grad()
    label = torch.full((b,), real_label)
    output = netD(real)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    noise = torch.from_numpy(NOISE[i])
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optD.step()
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optG.step()
    print(f"[{i}] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f} "
          f"D(x): {D_x:.4f} D(G(z)): {D_G_z1:.4f} / {D_G_z2:.4f}")

with torch.no_grad():
    samples = netG(torch.from_numpy(NOISE[0]))
print("fake mean/std", round(samples.mean().item(), 4), round(samples.std().item(), 4))
print(netG.main[0].weight.grad[:2].numpy().round(5))
print(optD.state_dict()["state"][0]["step"], len(optG.state_dict()["param_groups"][0]["params"]))
