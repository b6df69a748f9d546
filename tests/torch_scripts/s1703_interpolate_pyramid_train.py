# A feature-pyramid-like decoder: F.interpolate with nearest, bilinear (align_corners both
# ways), bicubic and area modes inside a trained model; upsample-then-add merges
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(511)
x = torch.from_numpy(rng.standard_normal((2, 2, 9, 9)))
target = torch.from_numpy(rng.standard_normal((2, 1, 9, 9)))


class FPN(nn.Module):
    def __init__(self, mode, align):
        super().__init__()
        self.c1 = nn.Conv2d(2, 4, 3, padding=1)
        self.c2 = nn.Conv2d(4, 4, 3, stride=2, padding=1)
        self.c3 = nn.Conv2d(4, 4, 3, stride=2, padding=1)
        self.out = nn.Conv2d(4, 1, 1)
        self.mode, self.align = mode, align

    def up(self, t, size):
        kw = {} if self.mode in ("nearest", "area", "nearest-exact") else {"align_corners": self.align}
        return F.interpolate(t, size=size, mode=self.mode, **kw)

    def forward(self, x):
        p1 = F.relu(self.c1(x))
        p2 = F.relu(self.c2(p1))
        p3 = F.relu(self.c3(p2))
        m2 = p2 + self.up(p3, p2.shape[-2:])
        m1 = p1 + self.up(m2, p1.shape[-2:])
        return self.out(m1)


for mode, align in [("nearest", None), ("bilinear", False), ("bilinear", True),
                    ("bicubic", False), ("area", None), ("nearest-exact", None)]:
    net = FPN(mode, align)
    with torch.no_grad():
        for i, p in enumerate(net.parameters()):
            p.copy_(torch.from_numpy(np.random.default_rng(i).normal(0, 0.3, tuple(p.shape))))
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    for it in range(3):
        opt.zero_grad()
        loss = F.mse_loss(net(x), target)
        loss.backward()
        opt.step()
    print(f"{mode:14s} {str(align):5s} {loss.item():.6f} {net.c3.weight.grad.abs().sum().item():.6f}")
t = torch.arange(12.0).view(1, 1, 3, 4).requires_grad_(True)
for kw in [dict(scale_factor=1.5, mode="bilinear", align_corners=False),
           dict(scale_factor=2.5, mode="nearest"), dict(size=(5, 7), mode="bicubic", align_corners=True),
           dict(scale_factor=0.5, mode="bilinear", antialias=True, align_corners=False)]:
    o = F.interpolate(t, **kw)
    (g,) = torch.autograd.grad(o.pow(2).sum(), t)
    print(tuple(o.shape), o[0, 0, 0].detach().numpy().round(4), g[0, 0, 0].numpy().round(4))
