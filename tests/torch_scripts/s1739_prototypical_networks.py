# Prototypical networks for few-shot classification: episodes of N-way K-shot support and
# query sets (indices from NumPy), class prototypes as support means, squared Euclidean
# distances, log_softmax over negative distances, episode accuracy
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(861)
n_classes, per_class, D = 6, 10, 5
centers = rng.standard_normal((n_classes, D)) * 1.5
data = torch.from_numpy(centers[:, None] + 0.6 * rng.standard_normal((n_classes, per_class, D)))

encoder = nn.Sequential(nn.Linear(D, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 8))
with torch.no_grad():
    for n, p in encoder.named_parameters():
        if p.dim() > 1:
            p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
        elif n.endswith("bias"):
            p.zero_()
opt = torch.optim.Adam(encoder.parameters(), lr=0.01)


def episode(n_way=3, k_shot=2, n_query=3):
    cls = rng.choice(n_classes, n_way, replace=False)
    idx = np.stack([rng.choice(per_class, k_shot + n_query, replace=False) for _ in cls])
    sel = data[torch.from_numpy(cls)[:, None], torch.from_numpy(idx)]
    return sel[:, :k_shot], sel[:, k_shot:]


for ep in range(8):
    encoder.train()
    support, query = episode()
    n_way, k_shot = support.shape[:2]
    emb = encoder(torch.cat([support.reshape(-1, D), query.reshape(-1, D)]))
    protos = emb[: n_way * k_shot].view(n_way, k_shot, -1).mean(1)
    q = emb[n_way * k_shot:]
    dists = torch.cdist(q, protos) ** 2
    log_p = F.log_softmax(-dists, dim=1)
    target = torch.arange(n_way).repeat_interleave(query.shape[1])
    loss = F.nll_loss(log_p, target)
    acc = (log_p.argmax(1) == target).double().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(ep, f"{loss.item():.6f}", f"{acc.item():.3f}")
encoder.eval()
with torch.no_grad():
    support, query = episode(n_way=4, k_shot=3, n_query=4)
    protos = encoder(support.reshape(-1, D)).view(4, 3, -1).mean(1)
    pred = torch.cdist(encoder(query.reshape(-1, D)), protos).argmin(1)
print(pred.tolist(), encoder[1].running_mean[:3].numpy().round(5))
