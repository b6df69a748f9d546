# grid_sample: bilinear/nearest/bicubic, padding modes, align_corners, grads w.r.t. grid
import torch
import torch.nn.functional as F

img = torch.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
grid = torch.tensor([[[[-1.0, -1.0], [0.3, -0.2]], [[0.9, 0.5], [1.2, -1.1]]]],
                    requires_grad=True)
for mode in ["bilinear", "nearest", "bicubic"]:
    for pad in ["zeros", "border", "reflection"]:
        out = F.grid_sample(img, grid, mode=mode, padding_mode=pad, align_corners=False)
        print(mode, pad, out.flatten().detach())
out = F.grid_sample(img, grid, align_corners=True)
print(out.grad_fn.name())
out.sum().backward()
print(img.grad)
print(grid.grad)
theta = torch.tensor([[[0.8, -0.2, 0.1], [0.3, 1.0, 0.0]]], requires_grad=True)
g = F.affine_grid(theta, (1, 1, 3, 3), align_corners=False)
y = F.grid_sample(img, g, align_corners=False)
y.mean().backward()
print(y.shape, theta.grad)
