# F.interpolate: every mode, scale factors vs sizes, align_corners, antialias, gradients
import torch
import torch.nn.functional as F

x = torch.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
for mode, extra in [("nearest", {}), ("nearest-exact", {}), ("bilinear", {"align_corners": False}),
                    ("bilinear", {"align_corners": True}), ("bicubic", {"align_corners": False}),
                    ("area", {})]:
    y = F.interpolate(x, size=(3, 5), mode=mode, **extra)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(mode, extra, y.grad_fn.name())
    print(y.detach()[0, 0])
    print(g[0, 0])
y = F.interpolate(x, scale_factor=0.5, mode="bilinear", antialias=True)
print(y.grad_fn.name(), y.detach())
s = torch.arange(6.0).reshape(1, 2, 3).requires_grad_()
z = F.interpolate(s, scale_factor=2, mode="linear")
z.sum().backward()
print(z.detach(), s.grad)
v = torch.arange(8.0).reshape(1, 1, 2, 2, 2)
print(F.interpolate(v, size=(3, 3, 3), mode="trilinear").shape)
try:
    F.interpolate(s, size=4, mode="bilinear")
except Exception as e:
    print(type(e).__name__, str(e)[:100])
print(F.interpolate(x.detach(), scale_factor=1.5, mode="nearest", recompute_scale_factor=True).shape)
