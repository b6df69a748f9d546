# Entropic optimal transport between two point clouds with log-domain Sinkhorn iterations
# (logsumexp), the transport plan, a barycentric map, and gradient of the OT cost w.r.t.
# the source points used to move them (a Sinkhorn-divergence-style flow)
import numpy as np
import torch

rng = np.random.default_rng(781)
x = torch.from_numpy(rng.standard_normal((12, 2))).requires_grad_(True)
y = torch.from_numpy(rng.standard_normal((10, 2)) + np.array([2.0, 0.0]))
a = torch.full((12,), 1 / 12)
b = torch.full((10,), 1 / 10)


def sinkhorn(x, y, eps=0.1, iters=100):
    C = torch.cdist(x, y) ** 2
    f = torch.zeros(x.size(0))
    g = torch.zeros(y.size(0))
    for _ in range(iters):
        f = -eps * torch.logsumexp((g.unsqueeze(0) - C) / eps + b.log().unsqueeze(0), dim=1)
        g = -eps * torch.logsumexp((f.unsqueeze(1) - C) / eps + a.log().unsqueeze(1), dim=0)
    P = torch.exp((f.unsqueeze(1) + g.unsqueeze(0) - C) / eps) * a.unsqueeze(1) * b.unsqueeze(0)
    return (P * C).sum(), P


cost, P = sinkhorn(x, y)
print(round(cost.item(), 6), P.sum(1)[:3].detach().numpy().round(6), P.sum(0)[:3].detach().numpy().round(6))
bary = (P @ y) / P.sum(1, keepdim=True)
print(bary[:2].detach().numpy().round(4))
opt = torch.optim.SGD([x], lr=2.0)
for it in range(5):
    opt.zero_grad()
    cost, _ = sinkhorn(x, y, iters=50)
    cost.backward()
    opt.step()
    print(it, f"{cost.item():.6f}", f"{x.grad.norm().item():.6f}")
print(x.detach().mean(0).numpy().round(4), y.mean(0).numpy().round(4))
