# Temporal convolutional network: causal dilated Conv1d (left padding then Chomp), old-style
# nn.utils.weight_norm, residual 1x1 downsample, trained to predict a delayed copy of a signal
import numpy as np
import torch
import torch.nn as nn
from torch.nn.utils import weight_norm


class Chomp1d(nn.Module):
    def __init__(self, chomp):
        super().__init__()
        self.chomp = chomp

    def forward(self, x):
        return x[:, :, :-self.chomp].contiguous()


class TemporalBlock(nn.Module):
    def __init__(self, i, o, k, d):
        super().__init__()
        pad = (k - 1) * d
        self.conv1 = weight_norm(nn.Conv1d(i, o, k, padding=pad, dilation=d))
        self.conv2 = weight_norm(nn.Conv1d(o, o, k, padding=pad, dilation=d))
        self.net = nn.Sequential(self.conv1, Chomp1d(pad), nn.ReLU(), self.conv2, Chomp1d(pad), nn.ReLU())
        self.downsample = nn.Conv1d(i, o, 1) if i != o else None

    def forward(self, x):
        res = x if self.downsample is None else self.downsample(x)
        return torch.relu(self.net(x) + res)


class TCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(TemporalBlock(1, 4, 2, 1), TemporalBlock(4, 4, 2, 2))
        self.head = nn.Conv1d(4, 1, 1)

    def forward(self, x):
        return self.head(self.blocks(x))


model = TCN()
rng = np.random.default_rng(331)
with torch.no_grad():
    for n, p in model.named_parameters():
        p.copy_(torch.from_numpy(rng.normal(0.1, 0.3, tuple(p.shape))))
print(sorted(n for n, _ in model.named_parameters())[:4])
sig = torch.from_numpy(rng.standard_normal((3, 1, 20)))
target = torch.roll(sig, 3, dims=2)
target[:, :, :3] = 0
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for it in range(8):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(sig), target)
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(it, f"{loss.item():.6f}")
x = sig.clone()
y1 = model(x)
x[:, :, 15:] += 1.0
y2 = model(x)
print("causal", torch.allclose(y1[:, :, :15], y2[:, :, :15]), y1.shape)
print(model.blocks[0].conv1.weight_g.grad.view(-1).numpy().round(6))
print(model.blocks[1].conv2.weight.shape, model.blocks[0].downsample)
