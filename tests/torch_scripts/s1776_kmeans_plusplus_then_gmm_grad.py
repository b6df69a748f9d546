# Clustering pipeline: k-means++ seeding (NumPy choices weighted by squared distances from
# torch.cdist), Lloyd iterations with argmin and index_add_ means, then a Gaussian mixture
# refined by gradient ascent on log-likelihood (logsumexp over components)
import math
import numpy as np
import torch

rng = np.random.default_rng(1221)
pts = torch.from_numpy(np.concatenate([rng.normal(c, 0.4, (30, 2)) for c in ([0, 0], [3, 1], [1, 3])]))
K = 3
centers = [pts[int(rng.integers(0, len(pts)))]]
for _ in range(K - 1):
    d2 = torch.cdist(pts, torch.stack(centers)).min(1).values ** 2
    centers.append(pts[int(rng.choice(len(pts), p=(d2 / d2.sum()).numpy()))])
C = torch.stack(centers)
for it in range(10):
    assign = torch.cdist(pts, C).argmin(1)
    sums = torch.zeros(K, 2).index_add_(0, assign, pts)
    counts = torch.bincount(assign, minlength=K).clamp_min(1).unsqueeze(1)
    C = sums / counts
print(torch.bincount(assign, minlength=K).tolist(), C[C[:, 0].argsort()].numpy().round(3))
mu = C.clone().requires_grad_(True)
log_s = torch.zeros(K, requires_grad=True)
logit_pi = torch.zeros(K, requires_grad=True)
opt = torch.optim.Adam([mu, log_s, logit_pi], lr=0.05)
for it in range(30):
    d2 = ((pts.unsqueeze(1) - mu.unsqueeze(0)) ** 2).sum(-1)
    s2 = torch.exp(2 * log_s)
    logp = torch.log_softmax(logit_pi, 0) - d2 / (2 * s2) - torch.log(2 * math.pi * s2)
    ll = torch.logsumexp(logp, 1).mean()
    opt.zero_grad()
    (-ll).backward()
    opt.step()
    if it % 10 == 9:
        print(it, f"{ll.item():.6f}", torch.exp(log_s).detach().numpy().round(4))
print(mu.detach()[mu.detach()[:, 0].argsort()].numpy().round(3))
