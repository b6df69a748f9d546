# Texture synthesis by matching Gram matrices of random-conv features at several layers,
# the image parameterized through sigmoid of a free tensor, Adam with a StepLR, a total
# variation regularizer, and the per-layer style losses reported
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(1231)
tex = torch.from_numpy(rng.random((1, 3, 12, 12)))
tex = F.avg_pool2d(tex, 3, stride=1, padding=1)
feats = nn.ModuleList([nn.Conv2d(3, 6, 3, padding=1), nn.Conv2d(6, 6, 3, padding=1, stride=2)])
with torch.no_grad():
    for q in feats.parameters():
        q.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(q.shape))))
feats.requires_grad_(False)


def grams(x):
    out = []
    for conv in feats:
        x = F.relu(conv(x))
        b, c, h, w = x.shape
        f = x.view(c, h * w)
        out.append(f @ f.T / (c * h * w))
    return out


target = [g.detach() for g in grams(tex)]
z = torch.zeros(1, 3, 12, 12, requires_grad=True)
opt = torch.optim.Adam([z], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for it in range(30):
    img = torch.sigmoid(z)
    per = [F.mse_loss(g, t) for g, t in zip(grams(img), target)]
    tv = (img[..., 1:, :] - img[..., :-1, :]).abs().mean() + (img[..., 1:] - img[..., :-1]).abs().mean()
    loss = 1e3 * sum(per) + 1e-3 * tv
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if it % 10 == 9:
        print(it, f"{loss.item():.6f}", [f"{p.item():.3e}" for p in per], sched.get_last_lr())
print(torch.sigmoid(z)[0, :, 0, :3].detach().numpy().round(4))
print(all(q.grad is None for q in feats.parameters()))
