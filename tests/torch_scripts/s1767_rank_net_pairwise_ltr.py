# Learning to rank with RankNet: a scoring MLP, all document pairs of each query with
# relevance differences (broadcasting), pairwise logistic loss on score differences,
# NDCG@3 with torch.sort and log2 discounts before and after training
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1141)
Q, Dq, Fd = 4, 6, 5
feats = torch.from_numpy(rng.standard_normal((Q, Dq, Fd)))
w_true = torch.from_numpy(rng.standard_normal(Fd))
rel = torch.bucketize(feats @ w_true, torch.tensor([-1.0, 0.0, 1.0])).double()
scorer = nn.Sequential(nn.Linear(Fd, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for q in scorer.parameters():
        q.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(q.shape))))


def ndcg_at_k(scores, rel, k=3):
    order = torch.sort(scores, dim=1, descending=True).indices
    gains = (2 ** rel.gather(1, order) - 1)[:, :k]
    disc = 1.0 / torch.log2(torch.arange(2, k + 2).double())
    dcg = (gains * disc).sum(1)
    ideal = ((2 ** torch.sort(rel, dim=1, descending=True).values - 1)[:, :k] * disc).sum(1)
    return (dcg / ideal.clamp_min(1e-12)).mean()


with torch.no_grad():
    print("ndcg before", round(ndcg_at_k(scorer(feats).squeeze(-1), rel).item(), 5))
opt = torch.optim.Adam(scorer.parameters(), lr=0.02)
for it in range(12):
    s = scorer(feats).squeeze(-1)
    diff = s.unsqueeze(2) - s.unsqueeze(1)
    S = torch.sign(rel.unsqueeze(2) - rel.unsqueeze(1))
    mask = S != 0
    loss = F.binary_cross_entropy_with_logits(diff[mask], (S[mask] + 1) / 2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 4 == 3:
        print(it, f"{loss.item():.6f}", int(mask.sum()))
with torch.no_grad():
    print("ndcg after", round(ndcg_at_k(scorer(feats).squeeze(-1), rel).item(), 5))
print(rel[0].tolist(), scorer[2].bias.grad.numpy().round(6))
