import torch
import torch.nn.functional as F

x1 = torch.arange(1.0, 6.0).view(1, 1, 5).requires_grad_(True)
x2 = torch.arange(1.0, 13.0).view(1, 1, 3, 4).requires_grad_(True)
for mode in ("constant", "reflect", "replicate", "circular"):
    p1 = F.pad(x1, (2, 1), mode=mode)
    p2 = F.pad(x2, (1, 2, 2, 1), mode=mode) if mode != "constant" else F.pad(x2, (1, 2, 2, 1), value=-1.0)
    print(mode, p1.flatten().tolist())
    print(p2[0, 0])
    x1.grad = None
    x2.grad = None
    (p1 * torch.arange(p1.numel(), dtype=p1.dtype).view_as(p1)).sum().backward()
    (p2 * torch.arange(p2.numel(), dtype=p2.dtype).view_as(p2)).sum().backward()
    print(x1.grad.flatten().tolist(), x2.grad.flatten().tolist())
print(F.pad(x2, (-1, 0, 0, -1)).shape, F.pad(torch.ones(2, 3), (1, 1)).shape)
for mode, kw in [("nearest", {}), ("nearest-exact", {}), ("bilinear", {"align_corners": False}), ("bilinear", {"align_corners": True}), ("bicubic", {"align_corners": False}), ("area", {})]:
    x2.grad = None
    up = F.interpolate(x2, size=(5, 6), mode=mode, **kw)
    (up * torch.linspace(0, 1, 30).view(1, 1, 5, 6)).sum().backward()
    print(mode, kw, up[0, 0, 1].round(decimals=4), x2.grad[0, 0, 1].round(decimals=4))
print(F.interpolate(x1, scale_factor=2.5, mode="linear").round(decimals=4))
print(F.interpolate(x2, scale_factor=0.5, mode="bilinear", antialias=True).round(decimals=4))
print(F.interpolate(x2, scale_factor=(1.5, 0.75), mode="nearest", recompute_scale_factor=True).shape)
print(torch.nn.Upsample(scale_factor=2, mode="nearest")(x1).shape, torch.nn.ReflectionPad2d(1)(x2).shape, torch.nn.ZeroPad2d((1, 0, 0, 1))(x2).shape, torch.nn.ConstantPad1d(2, 3.5)(x1))
