import torch
import torch.nn.functional as F

vol = torch.arange(2 * 3 * 3, dtype=torch.float64).reshape(1, 1, 2, 3, 3).requires_grad_()
theta = torch.tensor([[[0.9, 0.0, 0.1, 0.0], [0.1, 1.0, 0.0, 0.05], [0.0, 0.0, 1.0, 0.0]]])
grid = F.affine_grid(theta, (1, 1, 2, 2, 2), align_corners=False)
print(grid.shape)
out = F.grid_sample(vol, grid, mode="bilinear", padding_mode="border", align_corners=False)
print(out.detach().flatten().round(decimals=4))
out.sum().backward()
print(vol.grad.flatten().round(decimals=4))
nearest = F.grid_sample(vol.detach(), grid, mode="nearest", align_corners=True)
print(nearest.flatten())
img = torch.arange(16.0).reshape(1, 1, 4, 4)
g = torch.tensor([[[[-1.0, -1.0], [1.0, 1.0]], [[0.0, 0.0], [0.5, -0.5]]]])
print(F.grid_sample(img, g, mode="bicubic", align_corners=True).round(decimals=4))
print(F.grid_sample(img, g * 1.3, mode="bilinear", padding_mode="reflection", align_corners=True).round(decimals=4))
print(F.pixel_unshuffle(img, 2).shape, F.pixel_shuffle(F.pixel_unshuffle(img, 2), 2).equal(img))
print(F.channel_shuffle(torch.arange(6.0).reshape(1, 6, 1, 1), 2).flatten())
