# Sinkhorn iterations in the log domain; gradient of the transport cost w.r.t. the source points
import torch

x = torch.tensor([[0.0], [1.0], [2.0]], requires_grad=True)
y = torch.tensor([[0.5], [1.5], [3.0]])
C = (x - y.T) ** 2
eps = 0.5
a = torch.full((3,), 1 / 3); b = torch.full((3,), 1 / 3)
f = torch.zeros(3); g = torch.zeros(3)
for _ in range(100):
    f = -eps * torch.logsumexp((g[None, :] - C) / eps + b.log()[None, :], dim=1)
    g = -eps * torch.logsumexp((f[:, None] - C) / eps + a.log()[:, None], dim=0)
P = torch.exp((f[:, None] + g[None, :] - C) / eps) * a[:, None] * b[None, :]
cost = (P * C).sum()
print(torch.round(P, decimals=5), round(cost.item(), 6))
cost.backward()
print(torch.round(x.grad.squeeze(), decimals=5))
print(torch.round(P.sum(0), decimals=6), torch.round(P.sum(1), decimals=6))
