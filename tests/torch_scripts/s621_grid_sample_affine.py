import torch
import torch.nn.functional as F

img = torch.arange(1 * 1 * 4 * 5, dtype=torch.float64).reshape(1, 1, 4, 5).requires_grad_()
theta = torch.tensor([[[0.8, -0.1, 0.05], [0.2, 0.9, -0.1]]], requires_grad=True)
grid = F.affine_grid(theta, size=(1, 1, 3, 3), align_corners=False)
print(grid.shape)
print(grid[0, 0].detach())
for mode in ["bilinear", "nearest"]:
    for pad in ["zeros", "border", "reflection"]:
        out = F.grid_sample(img, grid, mode=mode, padding_mode=pad, align_corners=False)
        print(mode, pad, out.detach().flatten().round(decimals=4))
out = F.grid_sample(img, grid, align_corners=True)
out.sum().backward()
print(img.grad.round(decimals=4))
print(theta.grad.round(decimals=4))
