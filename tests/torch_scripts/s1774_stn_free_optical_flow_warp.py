# Estimating a translation between two images by gradient descent through a differentiable
# warp: the shift as a 2-vector parameter, a sampling grid by torch.meshgrid plus the
# shift, F.grid_sample(bilinear, border), photometric MSE, Adam; recovers the true shift
import numpy as np
import torch
import torch.nn.functional as F

H = W = 16
yy, xx = torch.meshgrid(torch.linspace(-1, 1, H), torch.linspace(-1, 1, W), indexing="ij")
img = torch.exp(-((xx - 0.1) ** 2 + (yy + 0.2) ** 2) / 0.1) + 0.5 * torch.exp(-((xx + 0.4) ** 2 + (yy - 0.3) ** 2) / 0.05)
img = img.view(1, 1, H, W)
true_shift = torch.tensor([0.15, -0.1])
base = torch.stack([xx, yy], -1).unsqueeze(0)
target = F.grid_sample(img, base + true_shift, mode="bilinear", padding_mode="border", align_corners=True)
shift = torch.zeros(2, requires_grad=True)
opt = torch.optim.Adam([shift], lr=0.02)
for it in range(40):
    opt.zero_grad()
    warped = F.grid_sample(img, base + shift, mode="bilinear", padding_mode="border", align_corners=True)
    loss = F.mse_loss(warped, target)
    loss.backward()
    opt.step()
    if it % 10 == 9:
        print(it, f"{loss.item():.8f}", shift.detach().numpy().round(4))
print(torch.allclose(shift.detach(), true_shift, atol=0.02), shift.grad.numpy().round(7))
print(xx[0, :3].numpy().round(4), yy[:3, 0].numpy().round(4))
