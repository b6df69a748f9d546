# A conditional VAE: the label one-hot (F.one_hot) concatenated to encoder input and latent,
# Gaussian decoder with a learned log-variance per output, closed-form KL, epsilon drawn by
# NumPy; class-conditional generation from the prior mean at eval
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(991)
C, D, Z = 3, 6, 2
labels = torch.from_numpy(rng.integers(0, C, 60))
means = torch.from_numpy(rng.standard_normal((C, D)) * 2)
X = means[labels] + 0.3 * torch.from_numpy(rng.standard_normal((60, D)))


class CVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(D + C, 16), nn.ReLU(), nn.Linear(16, 2 * Z))
        self.dec = nn.Sequential(nn.Linear(Z + C, 16), nn.ReLU(), nn.Linear(16, D))
        self.log_sigma = nn.Parameter(torch.zeros(D))

    def forward(self, x, y, eps):
        yo = F.one_hot(y, C).to(x.dtype)
        mu, logvar = self.enc(torch.cat([x, yo], 1)).chunk(2, dim=1)
        z = mu + eps * torch.exp(0.5 * logvar)
        return self.dec(torch.cat([z, yo], 1)), mu, logvar


model = CVAE()
with torch.no_grad():
    for n, p in model.named_parameters():
        if n != "log_sigma":
            p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(10):
    eps = torch.from_numpy(rng.standard_normal((60, Z)))
    recon, mu, logvar = model(X, labels, eps)
    nll = (0.5 * ((X - recon) / model.log_sigma.exp()) ** 2 + model.log_sigma).sum(1).mean()
    kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
    loss = nll + kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 3 == 0:
        print(epoch, f"nll {nll.item():.5f} kl {kl.item():.5f}")
model.eval()
with torch.no_grad():
    ys = torch.arange(C)
    gen = model.dec(torch.cat([torch.zeros(C, Z), F.one_hot(ys, C).double()], 1))
print((gen - means).norm(dim=1).numpy().round(4), model.log_sigma.exp().detach().numpy().round(4))
