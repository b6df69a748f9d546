# Soft-DTW between time series (Cuturi & Blondel) with a soft-min via -gamma*logsumexp over
# the three predecessors, a pairwise cost by torch.cdist; gradients used to align a
# learnable template to a target sequence
import numpy as np
import torch


def soft_dtw(x, y, gamma=0.1):
    D = torch.cdist(x, y) ** 2
    n, m = D.shape
    R = [[None] * (m + 1) for _ in range(n + 1)]
    inf = torch.tensor(float("inf"))
    for i in range(n + 1):
        for j in range(m + 1):
            R[i][j] = inf
    R[0][0] = torch.tensor(0.0)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            prev = torch.stack([R[i - 1][j - 1], R[i - 1][j], R[i][j - 1]])
            R[i][j] = D[i - 1, j - 1] - gamma * torch.logsumexp(-prev / gamma, 0)
    return R[n][m]


t = torch.linspace(0, 1, 12).unsqueeze(1)
target = torch.sin(2 * np.pi * (t ** 1.5))
template = torch.nn.Parameter(torch.sin(2 * np.pi * t) * 0.5)
opt = torch.optim.Adam([template], lr=0.05)
for it in range(8):
    opt.zero_grad()
    loss = soft_dtw(template, target)
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}", f"{template.grad.norm().item():.6f}")
a = torch.tensor([[0.0], [1.0], [2.0]], requires_grad=True)
b = torch.tensor([[0.0], [2.0]])
for g in (1.0, 0.1, 0.01):
    v = soft_dtw(a, b, g)
    (ga,) = torch.autograd.grad(v, a)
    print(g, round(v.item(), 6), ga.view(-1).numpy().round(5))
print(torch.cdist(a.detach(), b, p=1).numpy(), template.detach()[:4].view(-1).numpy().round(5))
