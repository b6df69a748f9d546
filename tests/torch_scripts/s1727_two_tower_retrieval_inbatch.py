# A two-tower retrieval model with in-batch negatives: query and item towers with
# EmbeddingBag(mode="sum") over feature ids + per_sample_weights, sampled-softmax
# correction by log item frequency, recall@k over a candidate set
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(741)
NQ, NI, F_ = 20, 15, 10
q_feats = torch.from_numpy(rng.integers(0, F_, (NQ, 3)))
q_w = torch.from_numpy(rng.uniform(0.5, 1.5, (NQ, 3)))
i_feats = torch.from_numpy(rng.integers(0, F_, (NI, 2)))
pos_item = torch.from_numpy(rng.integers(0, NI, NQ))
item_freq = torch.bincount(pos_item, minlength=NI).double() + 1


class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.bag = nn.EmbeddingBag(F_, 8, mode="sum")
        self.proj = nn.Linear(8, 6)

    def forward(self, ids, w=None):
        return F.normalize(self.proj(torch.relu(self.bag(ids, per_sample_weights=w))), dim=-1)


qt, it_ = Tower(), Tower()
for m in (qt, it_):
    with torch.no_grad():
        for p in m.parameters():
            p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(list(qt.parameters()) + list(it_.parameters()), lr=0.02)
temp = 0.1
for epoch in range(8):
    qe = qt(q_feats, q_w)
    ie = it_(i_feats[pos_item])
    logits = qe @ ie.T / temp - item_freq[pos_item].log()
    labels = torch.arange(NQ)
    same = pos_item.unsqueeze(0) == pos_item.unsqueeze(1)
    logits = logits.masked_fill(same & ~torch.eye(NQ, dtype=torch.bool), float("-inf"))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 2 == 1:
        print(epoch, f"{loss.item():.6f}")
with torch.no_grad():
    scores = qt(q_feats, q_w) @ it_(i_feats).T
    topk = scores.topk(3, dim=1).indices
    recall = (topk == pos_item.unsqueeze(1)).any(1).double().mean()
print("recall@3", round(recall.item(), 4), topk[:3].tolist())
print(qt.bag.weight.grad.abs().sum(1).numpy().round(5))
