# TransE knowledge-graph embeddings: entity and relation nn.Embedding tables, scores
# -||h + r - t||_1, margin ranking loss against corrupted tails (NumPy), entity
# embeddings renormalized to unit length under no_grad each step, hits@3 evaluation
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1091)
E, R, D = 12, 3, 6
triples = torch.from_numpy(np.stack([rng.integers(0, E, 30), rng.integers(0, R, 30), rng.integers(0, E, 30)], 1))


class TransE(nn.Module):
    def __init__(self):
        super().__init__()
        self.ent = nn.Embedding(E, D)
        self.rel = nn.Embedding(R, D)
        bound = 6 / D ** 0.5
        with torch.no_grad():
            self.ent.weight.copy_(torch.from_numpy(rng.uniform(-bound, bound, (E, D))))
            self.rel.weight.copy_(F.normalize(torch.from_numpy(rng.uniform(-bound, bound, (R, D))), p=2, dim=1))

    def score(self, h, r, t):
        return -(self.ent(h) + self.rel(r) - self.ent(t)).norm(p=1, dim=-1)


model = TransE()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
crit = nn.MarginRankingLoss(margin=1.0)
for epoch in range(10):
    with torch.no_grad():
        model.ent.weight.copy_(F.normalize(model.ent.weight, p=2, dim=1))
    h, r, t = triples.T
    t_neg = torch.from_numpy(rng.integers(0, E, len(t)))
    pos, neg = model.score(h, r, t), model.score(h, r, t_neg)
    loss = crit(pos, neg, torch.ones_like(pos))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 3 == 0:
        print(epoch, f"{loss.item():.6f}")
with torch.no_grad():
    h, r, t = triples[:5].T
    all_scores = model.score(h.unsqueeze(1), r.unsqueeze(1), torch.arange(E).unsqueeze(0))
    hits = (all_scores.topk(3, dim=1).indices == t.unsqueeze(1)).any(1)
print(hits.tolist(), all_scores[0].numpy().round(3)[:5])
print(model.ent.weight.norm(dim=1)[:3].detach().numpy().round(5))
