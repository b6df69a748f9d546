# A tiny U-Net for segmentation: double-conv blocks, MaxPool2d down, ConvTranspose2d up,
# skip connections by torch.cat, per-pixel CrossEntropyLoss with class weights, Dice score
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(321)
imgs = rng.standard_normal((4, 1, 8, 8))
masks = (imgs[:, 0] > 0.3).astype(np.int64)


def double_conv(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.GroupNorm(2, o), nn.ReLU(inplace=True),
                         nn.Conv2d(o, o, 3, padding=1), nn.GroupNorm(2, o), nn.ReLU(inplace=True))


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.inc = double_conv(1, 4)
        self.down = nn.Sequential(nn.MaxPool2d(2), double_conv(4, 8))
        self.up = nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.conv = double_conv(8, 4)
        self.outc = nn.Conv2d(4, 2, 1)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down(x1)
        x = self.up(x2)
        return self.outc(self.conv(torch.cat([x1, x], dim=1)))


net = UNet()
with torch.no_grad():
    for n, p in net.named_parameters():
        if "weight" in n and p.dim() > 1:
            p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
        elif "bias" in n:
            p.zero_()
X, M = torch.from_numpy(imgs), torch.from_numpy(masks)
crit = nn.CrossEntropyLoss(weight=torch.tensor([0.4, 0.6]))
opt = torch.optim.Adam(net.parameters(), lr=0.01)


def dice(pred, target, eps=1e-6):
    inter = (pred * target).sum()
    return (2 * inter + eps) / (pred.sum() + target.sum() + eps)


for ep in range(6):
    opt.zero_grad()
    logits = net(X)
    loss = crit(logits, M)
    loss.backward()
    opt.step()
    d = dice(logits.argmax(1).double(), M.double())
    print(ep, f"{loss.item():.6f}", f"{d.item():.4f}")
print(logits.shape, net.inc[1].weight.grad.numpy().round(6))
soft = F.softmax(logits, 1)[:, 1]
print("soft dice", round(dice(soft, M.double()).item(), 6))
