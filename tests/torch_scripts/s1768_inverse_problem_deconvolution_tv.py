# An inverse problem solved with autograd: a 1-D signal blurred by a known Gaussian kernel
# (F.conv1d with padding="same"), recovered by minimizing data fit plus a smoothed total
# variation penalty with Adam, then with a learned-prior-free Tikhonov closed form (solve)
import numpy as np
import torch
import torch.nn.functional as F

rng = np.random.default_rng(1151)
n = 48
truth = torch.zeros(n)
truth[10:20] = 1.0
truth[30:34] = -0.5
k = torch.exp(-0.5 * (torch.arange(-4, 5) / 1.5) ** 2)
k = k / k.sum()
blur = lambda s: F.conv1d(s.view(1, 1, -1), k.view(1, 1, -1), padding="same").view(-1)
obs = blur(truth) + 0.01 * torch.from_numpy(rng.standard_normal(n))
x = torch.zeros(n, requires_grad=True)
opt = torch.optim.Adam([x], lr=0.05)
for it in range(200):
    opt.zero_grad()
    tv = torch.sqrt((x[1:] - x[:-1]) ** 2 + 1e-4).sum()
    loss = 0.5 * ((blur(x) - obs) ** 2).sum() + 0.01 * tv
    loss.backward()
    opt.step()
    if it % 50 == 49:
        print(it, f"{loss.item():.6f}", f"{(x - truth).norm().item():.5f}")
A = torch.stack([blur(e) for e in torch.eye(n)], 1)
D = torch.eye(n)[1:] - torch.eye(n)[:-1]
x_tik = torch.linalg.solve(A.T @ A + 0.01 * D.T @ D, A.T @ obs)
print("tikhonov err", round((x_tik - truth).norm().item(), 5), "tv err", round((x.detach() - truth).norm().item(), 5))
print(x.detach()[8:13].numpy().round(4), A[:2, :3].numpy().round(5))
