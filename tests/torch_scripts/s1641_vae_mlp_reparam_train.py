# A small VAE on synthetic binary vectors: reparameterization with noise drawn by NumPy,
# Bernoulli decoder, KL term, Adam with a StepLR schedule, eval reconstruction error
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
X = (rng.random((64, 12)) < 0.3).astype(np.float64)
EPS = rng.standard_normal((8, 64, 2))


class VAE(nn.Module):
    def __init__(self, d_in=12, d_h=8, d_z=2):
        super().__init__()
        self.enc = nn.Linear(d_in, d_h)
        self.mu = nn.Linear(d_h, d_z)
        self.logvar = nn.Linear(d_h, d_z)
        self.dec1 = nn.Linear(d_z, d_h)
        self.dec2 = nn.Linear(d_h, d_in)

    def encode(self, x):
        h = F.relu(self.enc(x))
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        return self.dec2(torch.tanh(self.dec1(z)))

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar, eps)
        return self.decode(z), mu, logvar


def loss_function(logits, x, mu, logvar):
    bce = F.binary_cross_entropy_with_logits(logits, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld, bce, kld


model = VAE()
wrng = np.random.default_rng(1)
with torch.no_grad():
    for name, p in model.named_parameters():
        p.copy_(torch.from_numpy(wrng.standard_normal(tuple(p.shape)) * 0.3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
data = torch.from_numpy(X)
loader = DataLoader(TensorDataset(data, torch.arange(64)), batch_size=16, shuffle=False)
for epoch in range(8):
    model.train()
    total = 0.0
    for xb, idx in loader:
        eps = torch.from_numpy(EPS[epoch])[idx]
        opt.zero_grad()
        logits, mu, logvar = model(xb, eps)
        loss, bce, kld = loss_function(logits, xb, mu, logvar)
        loss.backward()
        opt.step()
        total += loss.item()
    sched.step()
    print(f"epoch {epoch} loss/sample {total / len(data):.5f} lr {sched.get_last_lr()[0]:.5f}")

model.eval()
with torch.no_grad():
    mu, logvar = model.encode(data)
    recon = torch.sigmoid(model.decode(mu))
    err = F.binary_cross_entropy(recon, data)
    print("eval bce", round(err.item(), 5))
    print("mu[:3]", mu[:3].numpy().round(4))
    print("mean var", logvar.exp().mean(0).numpy().round(4))
print(model.dec2.weight.grad.norm().item() > 0, model.mu.bias.grad.numpy().round(4))
