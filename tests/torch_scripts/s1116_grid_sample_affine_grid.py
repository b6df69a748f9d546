# Spatial transformer pieces: affine_grid + grid_sample (bilinear/nearest, align_corners, padding modes), gradients
import torch
import torch.nn.functional as F

img = torch.arange(16.0).view(1, 1, 4, 4).requires_grad_()
theta = torch.tensor([[[0.8, -0.2, 0.1], [0.3, 0.9, -0.2]]], requires_grad=True)
grid = F.affine_grid(theta, size=(1, 1, 3, 3), align_corners=False)
print(grid.shape, torch.round(grid[0, 0], decimals=6))
out = F.grid_sample(img, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
print(torch.round(out, decimals=6))
out.sum().backward()
print(img.grad, theta.grad)
g2 = F.affine_grid(theta.detach(), (1, 1, 2, 2), align_corners=True)
print(F.grid_sample(img.detach(), g2, mode="nearest", padding_mode="border", align_corners=True))
print(F.grid_sample(img.detach(), g2 * 1.5, padding_mode="reflection", align_corners=True))
