import torch
import torch.nn.functional as F

x = torch.arange(1 * 2 * 4 * 4, dtype=torch.float64).view(1, 2, 4, 4).requires_grad_()
for mode in ("constant", "reflect", "replicate", "circular"):
    print(mode, F.pad(x, (1, 2, 0, 1), mode=mode).shape, F.pad(x, (1, 1, 1, 1), mode=mode)[0, 0, 0])
print(F.pixel_shuffle(torch.arange(16.0).view(1, 4, 2, 2), 2)[0, 0], F.pixel_unshuffle(torch.arange(16.0).view(1, 1, 4, 4), 2).shape)
print(F.avg_pool2d(x, 2, stride=1, padding=1, count_include_pad=False)[0, 0, 0], F.lp_pool2d(x, 2, 2)[0, 0])
print(F.adaptive_max_pool2d(x, (3, 2), return_indices=True)[1][0, 0], F.adaptive_avg_pool1d(x[0, :, 0], 3))
theta = torch.tensor([[[0.9, 0.1, 0.0], [-0.1, 0.9, 0.1]]])
grid = F.affine_grid(theta, (1, 2, 3, 3), align_corners=False)
out = F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)
out.sum().backward()
print(out[0, 1].round(decimals=4), x.grad[0, 0].round(decimals=4))
u = F.unfold(x.detach(), kernel_size=2, stride=2)
print(u.shape, F.fold(u, (4, 4), kernel_size=2, stride=2).equal(x.detach()))
print(F.interpolate(x.detach(), scale_factor=0.5, mode="area")[0, 0], F.interpolate(x.detach()[:, :, 0], size=6, mode="linear", align_corners=True)[0, 0])
mp, idx = F.max_pool2d(x.detach(), 2, return_indices=True)
print(F.max_unpool2d(mp, idx, 2)[0, 0], F.embedding_bag(torch.tensor([0, 2, 1, 1]), torch.eye(3), torch.tensor([0, 2]), mode="max"))
print(F.conv2d(x.detach(), torch.ones(3, 1, 2, 2), groups=1 if False else 1, padding=1)[0, 0, 0] if False else F.conv2d(x.detach(), torch.ones(3, 2, 2, 2), stride=(2, 1), dilation=(1, 2)).shape)
print(F.conv_transpose1d(torch.ones(1, 2, 3), torch.ones(2, 1, 3), stride=2, padding=1, output_padding=1)[0])
