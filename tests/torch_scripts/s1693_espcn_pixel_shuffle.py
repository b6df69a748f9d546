# Super-resolution in the style of the ESPCN example: conv layers then PixelShuffle(2),
# trained on downsampled images (avg_pool2d), PSNR reported each epoch
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(421)
hr = torch.from_numpy(rng.random((4, 1, 8, 8)))
hr = F.avg_pool2d(F.pad(hr, (1, 1, 1, 1), mode="reflect"), 3, stride=1)
lr_img = F.avg_pool2d(hr, 2)


class Net(nn.Module):
    def __init__(self, upscale_factor=2):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 5, 1, 2)
        self.conv2 = nn.Conv2d(8, 8, 3, 1, 1)
        self.conv3 = nn.Conv2d(8, upscale_factor ** 2, 3, 1, 1)
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

    def forward(self, x):
        x = torch.tanh(self.conv1(x))
        x = torch.tanh(self.conv2(x))
        return self.pixel_shuffle(self.conv3(x))


model = Net()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.2, tuple(p.shape))))
crit = nn.MSELoss()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
print(lr_img.shape, model(lr_img).shape)
for epoch in range(6):
    opt.zero_grad()
    loss = crit(model(lr_img), hr)
    loss.backward()
    opt.step()
    psnr = 10 * math.log10(1 / loss.item())
    print(f"epoch {epoch} loss {loss.item():.6f} psnr {psnr:.4f} dB")
bicubic = F.interpolate(lr_img, scale_factor=2, mode="bicubic", align_corners=False)
print("bicubic psnr", round(10 * math.log10(1 / crit(bicubic, hr).item()), 4))
x = torch.arange(8.0).view(1, 8, 1, 1)
print(nn.PixelShuffle(2)(x).view(2, 2, 2), nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(x)).view(-1))
