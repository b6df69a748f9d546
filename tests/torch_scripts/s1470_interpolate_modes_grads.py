# F.interpolate nearest/linear/bilinear with align_corners; gradients back to the input
import torch
import torch.nn.functional as F

x = torch.tensor([[[1.0, 2.0, 4.0]]], requires_grad=True)
for kw in [dict(scale_factor=2, mode="nearest"), dict(size=5, mode="linear", align_corners=True),
           dict(size=5, mode="linear", align_corners=False), dict(scale_factor=2, mode="nearest-exact")]:
    x.grad = None
    y = F.interpolate(x, **kw)
    (y * torch.arange(y.shape[-1], dtype=y.dtype)).sum().backward()
    print(kw["mode"], y.detach(), x.grad)
im = torch.arange(4.0).reshape(1, 1, 2, 2).requires_grad_()
y = F.interpolate(im, size=(3, 3), mode="bilinear", align_corners=True)
print(y)
y.sum().backward()
print(im.grad)
