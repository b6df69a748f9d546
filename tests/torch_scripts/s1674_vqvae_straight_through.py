# VQ-VAE bottleneck: nearest codebook entry via cdist/argmin, straight-through estimator
# z + (q - z).detach(), codebook and commitment losses, perplexity of code usage
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(241)
X = torch.from_numpy(np.concatenate([rng.normal(m, 0.2, (16, 4)) for m in (-1, 0, 1, 2)]))


class VectorQuantizer(nn.Module):
    def __init__(self, K=6, dim=2, beta=0.25):
        super().__init__()
        self.beta = beta
        self.embedding = nn.Embedding(K, dim)
        with torch.no_grad():
            self.embedding.weight.copy_(torch.from_numpy(rng.uniform(-1 / K, 1 / K, (K, dim))))

    def forward(self, z):
        d = torch.cdist(z, self.embedding.weight)
        idx = torch.argmin(d, dim=1)
        q = self.embedding(idx)
        codebook_loss = F.mse_loss(q, z.detach())
        commitment = F.mse_loss(z, q.detach())
        q_st = z + (q - z).detach()
        onehot = F.one_hot(idx, self.embedding.num_embeddings).double()
        avg = onehot.mean(0)
        perplexity = torch.exp(-torch.sum(avg * torch.log(avg + 1e-10)))
        return q_st, codebook_loss + self.beta * commitment, perplexity, idx


class VQVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
        self.vq = VectorQuantizer()
        self.dec = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 4))

    def forward(self, x):
        q, vq_loss, ppl, idx = self.vq(self.enc(x))
        return self.dec(q), vq_loss, ppl, idx


model = VQVAE()
with torch.no_grad():
    for n, p in model.named_parameters():
        if not n.startswith("vq"):
            p.copy_(torch.from_numpy(rng.normal(0, 0.6, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(12):
    opt.zero_grad()
    recon, vq_loss, ppl, idx = model(X)
    rec = F.mse_loss(recon, X)
    (rec + vq_loss).backward()
    opt.step()
    if step % 3 == 2:
        print(step, f"rec {rec.item():.5f} vq {vq_loss.item():.5f} ppl {ppl.item():.4f}")
print("encoder gets grads", model.enc[0].weight.grad.abs().sum().item() > 0)
print(torch.bincount(idx, minlength=6).tolist())
print(model.vq.embedding.weight.grad.abs().sum(1).numpy().round(6))
print(model.vq.embedding.weight.detach().numpy().round(4))
