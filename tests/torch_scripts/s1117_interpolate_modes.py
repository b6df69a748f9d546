# F.interpolate: nearest-exact, bilinear align_corners, bicubic, area, scale_factor with recompute, 1-d linear, trilinear
import torch
import torch.nn.functional as F

x = torch.arange(16.0).view(1, 1, 4, 4)
print(F.interpolate(x, size=(3, 3), mode="nearest"))
print(F.interpolate(x, size=(3, 3), mode="nearest-exact"))
print(F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=True))
print(torch.round(F.interpolate(x, size=(5, 5), mode="bicubic", align_corners=False)[0, 0, :2], decimals=5))
print(F.interpolate(x, size=(2, 3), mode="area"))
print(F.interpolate(x, scale_factor=1.5, mode="bilinear", recompute_scale_factor=True).shape)
print(F.interpolate(torch.tensor([[[1.0, 2.0, 4.0]]]), size=5, mode="linear"))
print(F.interpolate(torch.arange(8.0).view(1, 1, 2, 2, 2), scale_factor=2, mode="trilinear").shape)
y = x.clone().requires_grad_()
F.interpolate(y, size=(3, 3), mode="bilinear", antialias=True).sum().backward()
print(torch.round(y.grad, decimals=6))
