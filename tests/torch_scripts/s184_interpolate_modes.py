import torch
import torch.nn.functional as F

x = torch.arange(16, dtype=torch.float64).reshape(1, 1, 4, 4).requires_grad_()
for kw in [dict(size=(6, 6), mode="nearest"), dict(scale_factor=1.5, mode="nearest-exact"),
           dict(size=(3, 5), mode="bilinear", align_corners=True),
           dict(size=(3, 5), mode="bilinear", align_corners=False),
           dict(scale_factor=0.5, mode="area"), dict(size=(5, 5), mode="bicubic", align_corners=False),
           dict(scale_factor=1.7, mode="bilinear", recompute_scale_factor=True)]:
    y = F.interpolate(x, **kw)
    (g,) = torch.autograd.grad((y * y).sum(), x)
    print(kw["mode"], tuple(y.shape), y.grad_fn.name(), round(y.sum().item(), 5), g[0, 0, 0].round(decimals=4))
s = torch.tensor([[[1.0, 2.0, 4.0]]])
print(F.interpolate(s, size=5, mode="linear"), F.interpolate(s, scale_factor=2))
print(torch.nn.Upsample(scale_factor=2, mode="bilinear")(x.detach()[:, :, :2, :2]))
