import torch
import torch.nn.functional as F

x = torch.arange(1.0, 10.0).reshape(1, 1, 3, 3).requires_grad_()
for mode, ac in [("nearest", None), ("nearest-exact", None), ("bilinear", False), ("bilinear", True), ("bicubic", False), ("area", None)]:
    kw = {} if ac is None else {"align_corners": ac}
    y = F.interpolate(x, size=(4, 5), mode=mode, **kw)
    print(mode, ac, y.detach()[0, 0, 1].round(decimals=4))
y = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
y.pow(2).sum().backward()
print(x.grad.round(decimals=4))
s = torch.tensor([[[1.0, 3.0, 2.0, 5.0]]])
print(F.interpolate(s, size=7, mode="linear", align_corners=True).round(decimals=4))
print(F.interpolate(s, scale_factor=0.5, mode="linear").round(decimals=4))
print(F.interpolate(x.detach(), scale_factor=1.5, mode="nearest", recompute_scale_factor=True).shape)
up = torch.nn.Upsample(scale_factor=2, mode="nearest")
print(up(s))
v = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
print(F.interpolate(v, size=(3, 3, 3), mode="trilinear", align_corners=True)[0, 0, 1].round(decimals=4))
print(F.interpolate(x.detach(), size=(2, 2), mode="bilinear", antialias=True).round(decimals=4))
