# 1-D GAN step as in "GANs in 50 lines": G and D, BCEWithLogits, detach for D step, fixed noise
import torch
import torch.nn as nn


def make(n_in, n_out, hidden, seed):
    net = nn.Sequential(nn.Linear(n_in, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, n_out))
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(0.5 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * seed + i).view_as(p))
    return net


G = make(2, 1, 8, 1.3)
D = make(1, 1, 8, 0.7)
criterion = nn.BCEWithLogitsLoss()
d_opt = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
g_opt = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
real = (torch.linspace(-1, 1, 16) * 0.5 + 4.0).unsqueeze(1)
noise = torch.stack([torch.cos(torch.arange(16.0)), torch.sin(torch.arange(16.0) * 2)], 1)
real_labels, fake_labels = torch.ones(16, 1), torch.zeros(16, 1)
for step in range(20):
    D.zero_grad()
    d_real = criterion(D(real), real_labels)
    fake = G(noise)
    d_fake = criterion(D(fake.detach()), fake_labels)
    d_loss = d_real + d_fake
    d_loss.backward()
    d_opt.step()
    G.zero_grad()
    g_loss = criterion(D(fake), real_labels)
    g_loss.backward()
    g_opt.step()
    if step % 5 == 4:
        print(f"step {step + 1}: D {d_loss.item():.5f} G {g_loss.item():.5f} fake mean {fake.mean().item():.4f}")
print(fake.requires_grad, fake.detach().requires_grad, D[0].weight.grad.shape)
with torch.no_grad():
    print(torch.sigmoid(D(real)).mean().round(decimals=4), G(noise[:2]).squeeze().round(decimals=4))
