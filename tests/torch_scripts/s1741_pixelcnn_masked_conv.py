# PixelCNN masked convolutions: a MaskedConv2d subclass of nn.Conv2d with a registered
# mask buffer (type A excludes the centre, type B includes it) applied in forward via
# F.conv2d(weight * mask); the receptive field checked by the input gradient
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedConv2d(nn.Conv2d):
    def __init__(self, mask_type, *args, **kwargs):
        super().__init__(*args, **kwargs)
        assert mask_type in ("A", "B")
        self.register_buffer("mask", self.weight.data.clone())
        _, _, kH, kW = self.weight.size()
        self.mask.fill_(1)
        self.mask[:, :, kH // 2, kW // 2 + (mask_type == "B"):] = 0
        self.mask[:, :, kH // 2 + 1:] = 0

    def forward(self, x):
        return F.conv2d(x, self.weight * self.mask, self.bias, self.stride, self.padding)


rng = np.random.default_rng(881)
net = nn.Sequential(MaskedConv2d("A", 1, 8, 5, padding=2), nn.ReLU(),
                    MaskedConv2d("B", 8, 8, 3, padding=1), nn.ReLU(),
                    nn.Conv2d(8, 4, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
print(net[0].mask[0, 0])
imgs = torch.from_numpy(rng.integers(0, 4, (4, 1, 6, 6)))
x = imgs.double() / 3
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for it in range(6):
    opt.zero_grad()
    logits = net(x)
    loss = F.cross_entropy(logits, imgs.squeeze(1))
    loss.backward()
    opt.step()
    print(it, f"{loss.item():.6f}", f"{net[0].weight.grad.mul(1 - net[0].mask).abs().sum().item():.1f}")
xg = x[:1].clone().requires_grad_(True)
net(xg)[0, :, 3, 3].sum().backward()
print((xg.grad[0, 0] != 0).int())
print(sorted(net.state_dict().keys())[:4])
