import torch
import torch.nn.functional as F

x = torch.arange(16, dtype=torch.float64).view(1, 1, 4, 4)
print(F.interpolate(x, scale_factor=2, mode='nearest').shape)
print(F.interpolate(x, size=(2, 2), mode='bilinear', align_corners=False))
print(F.interpolate(x, size=(3, 3), mode='bilinear', align_corners=True))
print(F.interpolate(x, scale_factor=0.5, mode='area'))
print(F.interpolate(torch.arange(4.).view(1, 1, 4), size=7, mode='linear', align_corners=False))
print(F.interpolate(torch.arange(4.).view(1, 1, 4), scale_factor=2, mode='nearest'))

theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
grid = F.affine_grid(theta, size=(1, 1, 3, 3), align_corners=False)
print(grid.shape)
print(grid[0, :, :, 0])
out = F.grid_sample(x, F.affine_grid(theta, (1, 1, 4, 4), align_corners=False), align_corners=False)
print(torch.allclose(out, x))
rot = torch.tensor([[[0.0, -1.0, 0.0], [1.0, 0.0, 0.0]]])
g2 = F.affine_grid(rot, (1, 1, 4, 4), align_corners=True)
print(F.grid_sample(x, g2, align_corners=True))
print(F.grid_sample(x, g2 * 0.5, mode='nearest', align_corners=True))
print(F.grid_sample(x, g2 * 1.5, padding_mode='border', align_corners=True))

xr = x.clone().requires_grad_()
F.grid_sample(xr, g2 * 0.7, align_corners=False).sum().backward()
print(xr.grad)
