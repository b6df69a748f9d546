# Capsule layer with dynamic routing (Sabour et al.) in miniature: squash non-linearity,
# prediction vectors u_hat via einsum, 3 routing iterations with softmax over coupling
# logits, margin loss on capsule lengths
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(531)


def squash(s, dim=-1, eps=1e-8):
    n2 = (s ** 2).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + eps)


class CapsLayer(nn.Module):
    def __init__(self, n_in=6, d_in=4, n_out=3, d_out=5, iters=3):
        super().__init__()
        self.W = nn.Parameter(torch.from_numpy(rng.normal(0, 0.3, (n_in, n_out, d_out, d_in))))
        self.iters = iters

    def forward(self, u):
        u_hat = torch.einsum("ijdk,bik->bijd", self.W, u)
        b = torch.zeros(u.size(0), u_hat.size(1), u_hat.size(2))
        for r in range(self.iters):
            c = F.softmax(b, dim=2)
            v = squash((c.unsqueeze(-1) * u_hat).sum(1))
            if r < self.iters - 1:
                b = b + (u_hat * v.unsqueeze(1)).sum(-1)
        return v, c


def margin_loss(lengths, labels, m_pos=0.9, m_neg=0.1, lam=0.5):
    T = F.one_hot(labels, lengths.size(1)).double()
    return (T * F.relu(m_pos - lengths) ** 2 + lam * (1 - T) * F.relu(lengths - m_neg) ** 2).sum(1).mean()


caps = CapsLayer()
u = squash(torch.from_numpy(rng.standard_normal((8, 6, 4))))
labels = torch.from_numpy(rng.integers(0, 3, 8))
opt = torch.optim.Adam(caps.parameters(), lr=0.02)
for it in range(8):
    v, c = caps(u)
    lengths = v.norm(dim=-1)
    loss = margin_loss(lengths, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 2 == 1:
        acc = (lengths.argmax(1) == labels).double().mean().item()
        print(it, f"{loss.item():.6f}", acc)
print(c[0].detach().numpy().round(4))
print(lengths[:3].detach().numpy().round(5), squash(torch.tensor([3.0, 4.0])).numpy().round(5))
