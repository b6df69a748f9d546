# MLP-Mixer blocks: token-mixing MLP over the patch axis (transpose), channel-mixing MLP,
# LayerNorms and residuals, global average pooling head; trained a few steps with SGD+nesterov
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(551)
X = torch.from_numpy(rng.standard_normal((8, 9, 6)))
Y = torch.from_numpy(rng.integers(0, 3, 8))


class MlpBlock(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(dim, hidden), nn.Linear(hidden, dim)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class MixerBlock(nn.Module):
    def __init__(self, tokens, channels):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(channels), nn.LayerNorm(channels)
        self.token_mix = MlpBlock(tokens, 16)
        self.channel_mix = MlpBlock(channels, 12)

    def forward(self, x):
        x = x + self.token_mix(self.norm1(x).transpose(1, 2)).transpose(1, 2)
        return x + self.channel_mix(self.norm2(x))


class Mixer(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(*[MixerBlock(9, 6) for _ in range(2)])
        self.norm = nn.LayerNorm(6)
        self.head = nn.Linear(6, 3)

    def forward(self, x):
        return self.head(self.norm(self.blocks(x)).mean(dim=1))


model = Mixer()
with torch.no_grad():
    for n, p in model.named_parameters():
        if "norm" not in n:
            p.copy_(torch.from_numpy(rng.normal(0, 0.3, tuple(p.shape))))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.SequentialLR(opt, [
    torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.2, total_iters=3),
    torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5)], milestones=[3])
for it in range(8):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), Y)
    loss.backward()
    opt.step()
    sched.step()
    print(it, f"{loss.item():.6f}", f"{sched.get_last_lr()[0]:.6f}")
print(model.blocks[0].token_mix.fc1.weight.grad[:2, :4].numpy().round(6))
