# Embedding retrieval: normalised embeddings, cosine similarity matrix, top-k neighbours, recall@k,
# margin ranking and cosine embedding losses
import torch
import torch.nn as nn
import torch.nn.functional as F

queries = torch.tensor([[1.0, 0.2, 0.0], [0.0, 1.0, 0.3], [0.5, 0.5, 0.5], [0.9, -0.1, 0.2]])
docs = torch.tensor([[0.9, 0.1, 0.1], [0.1, 0.8, 0.4], [0.4, 0.6, 0.5], [-1.0, 0.0, 0.2], [1.0, 0.0, 0.1]])
q = F.normalize(queries, p=2, dim=1)
d = F.normalize(docs, dim=-1)
sim = q @ d.T
print(sim.round(decimals=4))
print(torch.allclose(sim, F.cosine_similarity(queries.unsqueeze(1), docs.unsqueeze(0), dim=-1)))
vals, idx = sim.topk(k=2, dim=1)
print(idx.tolist(), vals.round(decimals=4))
relevant = torch.tensor([0, 1, 2, 4])
recall_at_1 = (idx[:, 0] == relevant).float().mean()
recall_at_2 = (idx == relevant.unsqueeze(1)).any(dim=1).float().mean()
print(f"recall@1={recall_at_1:.2f} recall@2={recall_at_2:.2f}")
ranks = (sim > sim.gather(1, relevant.view(-1, 1))).sum(1) + 1
print(ranks.tolist(), (1.0 / ranks.float()).mean().item())
dist = torch.cdist(queries, docs)
print(dist.argmin(1).tolist(), torch.cdist(q, d).pow(2).div(2).add(sim).round(decimals=10).unique().tolist())
x1 = queries.clone().requires_grad_()
cel = nn.CosineEmbeddingLoss(margin=0.2)
target = torch.tensor([1, -1, 1, -1])
loss = cel(x1, docs[:4], target)
loss.backward()
print(round(loss.item(), 6), x1.grad.abs().sum().round(decimals=6))
mrl = F.margin_ranking_loss(sim[:, 0], sim[:, 3], torch.ones(4), margin=0.1)
print(round(mrl.item(), 6), F.pairwise_distance(queries, docs[:4]).round(decimals=4))
print(F.triplet_margin_loss(queries, docs[:4], docs[[3, 3, 3, 0]], margin=1.0).round(decimals=6))
