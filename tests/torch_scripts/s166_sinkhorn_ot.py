import math

import torch


def sinkhorn(x, y, eps=0.1, iters=50):
    C = torch.cdist(x, y, p=2) ** 2
    n, m = C.shape
    log_a = torch.full((n,), -math.log(n))
    log_b = torch.full((m,), -math.log(m))
    f = torch.zeros(n)
    g = torch.zeros(m)
    for _ in range(iters):
        f = -eps * torch.logsumexp((g[None, :] - C) / eps + log_b[None, :], dim=1)
        g = -eps * torch.logsumexp((f[:, None] - C) / eps + log_a[:, None], dim=0)
    P = torch.exp((f[:, None] + g[None, :] - C) / eps + log_a[:, None] + log_b[None, :])
    return (P * C).sum(), P


x = torch.stack([torch.linspace(0, 1, 5), torch.linspace(0, 1, 5) ** 2], 1).requires_grad_()
y = torch.stack([torch.linspace(0.2, 1.2, 4), torch.ones(4) * 0.5], 1)
cost, P = sinkhorn(x, y)
print(round(cost.item(), 6), P.sum(0).round(decimals=4), P.sum(1).round(decimals=4))
cost.backward()
print(x.grad.round(decimals=5))
print(torch.cdist(x, y, p=1).round(decimals=3))
print(torch.cdist(x.detach(), y, p=float("inf")).round(decimals=3))
d = torch.cdist(x, y, compute_mode="donot_use_mm_for_euclid_dist")
print(d.grad_fn.name(), d.shape)
