# A graph attention layer (GAT) on a dense adjacency: per-head linear projections, attention
# logits from concatenated pairs via broadcasting, LeakyReLU(0.2), masked_fill of
# non-edges with -inf, softmax over neighbours, ELU and head concatenation
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(891)
N, Fin, H, Fo = 8, 4, 2, 3
A = (rng.random((N, N)) < 0.3)
A = torch.from_numpy(A | A.T | np.eye(N, dtype=bool))
X = torch.from_numpy(rng.standard_normal((N, Fin)))
labels = torch.from_numpy(rng.integers(0, 2, N))


class GATLayer(nn.Module):
    def __init__(self, fin, fout, heads, concat=True):
        super().__init__()
        self.W = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (heads, fin, fout))))
        self.a_src = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (heads, fout))))
        self.a_dst = nn.Parameter(torch.from_numpy(rng.normal(0, 0.5, (heads, fout))))
        self.concat = concat

    def forward(self, x, adj):
        h = torch.einsum("nf,hfo->hno", x, self.W)
        e = (h * self.a_src[:, None]).sum(-1).unsqueeze(2) + (h * self.a_dst[:, None]).sum(-1).unsqueeze(1)
        e = F.leaky_relu(e, 0.2).masked_fill(~adj, float("-inf"))
        att = torch.softmax(e, dim=-1)
        out = att @ h
        return (out.permute(1, 0, 2).reshape(x.size(0), -1) if self.concat else out.mean(0)), att


class GAT(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = GATLayer(Fin, Fo, H)
        self.l2 = GATLayer(H * Fo, 2, 1, concat=False)

    def forward(self, x, adj):
        h, att = self.l1(x, adj)
        out, _ = self.l2(F.elu(h), adj)
        return out, att


model = GAT()
opt = torch.optim.Adam(model.parameters(), lr=0.02, weight_decay=5e-4)
for it in range(8):
    opt.zero_grad()
    out, att = model(X, A)
    loss = F.cross_entropy(out, labels)
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}")
print(int(A.sum()), att[0, 0].detach().numpy().round(4))
print(model.l1.a_src.grad.numpy().round(6))
print(torch.isfinite(att).all().item(), (att > 0).sum().item())
