# Losses from segmentation repos: multi-class focal loss (gamma=2, alpha per class) from
# log_softmax and gather, soft Dice over one-hot targets with permute, combined and
# optimized on a tiny conv net; class weights from inverse frequency
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(671)
C = 3
imgs = torch.from_numpy(rng.standard_normal((3, 2, 6, 6)))
masks = torch.from_numpy(rng.integers(0, C, (3, 6, 6)))
freq = torch.bincount(masks.flatten(), minlength=C).double()
alpha = (1.0 / freq) / (1.0 / freq).sum()
print(freq.tolist(), alpha.numpy().round(4))


def focal_loss(logits, target, gamma=2.0, alpha=None):
    logp = F.log_softmax(logits, dim=1)
    logpt = logp.gather(1, target.unsqueeze(1)).squeeze(1)
    pt = logpt.exp()
    loss = -((1 - pt) ** gamma) * logpt
    if alpha is not None:
        loss = loss * alpha[target]
    return loss.mean()


def soft_dice_loss(logits, target, eps=1.0):
    probs = logits.softmax(1)
    onehot = F.one_hot(target, C).permute(0, 3, 1, 2).double()
    inter = (probs * onehot).sum((0, 2, 3))
    union = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


net = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, C, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(net.parameters(), lr=0.02)
for it in range(8):
    logits = net(imgs)
    fl, dl = focal_loss(logits, masks, alpha=alpha), soft_dice_loss(logits, masks)
    loss = fl + dl
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"focal {fl.item():.6f} dice {dl.item():.6f}")
ce = F.cross_entropy(logits, masks, weight=alpha * C)
print(round(ce.item(), 6), round(focal_loss(logits, masks, gamma=0.0).item(), 6),
      round(F.cross_entropy(logits, masks).item(), 6))
print(net[2].bias.grad.numpy().round(6))
