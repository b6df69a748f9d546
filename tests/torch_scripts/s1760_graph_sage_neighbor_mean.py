# GraphSAGE with mean aggregation from an edge list: index_add_ of neighbour features
# divided by degree (bincount, clamp_min), concatenation with self features, L2
# normalization of embeddings, link-prediction loss on positive/negative edge pairs
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1071)
N = 10
src = torch.from_numpy(rng.integers(0, N, 24))
dst = torch.from_numpy(rng.integers(0, N, 24))
keep = src != dst
src, dst = src[keep], dst[keep]
X = torch.from_numpy(rng.standard_normal((N, 4)))
neg = torch.from_numpy(rng.integers(0, N, (len(src), 2)))


class SAGELayer(nn.Module):
    def __init__(self, i, o):
        super().__init__()
        self.lin = nn.Linear(2 * i, o)

    def forward(self, x, src, dst):
        agg = torch.zeros_like(x).index_add_(0, dst, x[src])
        deg = torch.bincount(dst, minlength=x.size(0)).clamp_min(1).unsqueeze(1)
        return F.normalize(F.relu(self.lin(torch.cat([x, agg / deg], 1))), dim=1)


class SAGE(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = SAGELayer(4, 8), SAGELayer(8, 8)

    def forward(self, x, s, d):
        return self.l2(self.l1(x, s, d), s, d)


model = SAGE()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for it in range(8):
    h = model(X, src, dst)
    pos_score = (h[src] * h[dst]).sum(1)
    neg_score = (h[neg[:, 0]] * h[neg[:, 1]]).sum(1)
    loss = F.binary_cross_entropy_with_logits(torch.cat([pos_score, neg_score]),
                                              torch.cat([torch.ones_like(pos_score), torch.zeros_like(neg_score)]))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}")
print(len(src), torch.bincount(dst, minlength=N).tolist())
print(h[:2].detach().numpy().round(4), h.norm(dim=1)[:3].detach().numpy().round(6))
