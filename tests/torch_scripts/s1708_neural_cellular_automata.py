# Neural cellular automata step: fixed Sobel/identity perception filters applied per channel
# with a depthwise conv (groups=C), an update MLP as 1x1 convs, alive masking with
# max_pool2d, several steps unrolled and trained to a target pattern
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

C, H = 4, 8
rng = np.random.default_rng(561)
ident = torch.tensor([[0.0, 0, 0], [0, 1, 0], [0, 0, 0]])
sobel_x = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]]) / 8
kernels = torch.stack([ident, sobel_x, sobel_x.T]).repeat(C, 1, 1).unsqueeze(1)


class CA(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("kernels", kernels)
        self.w1 = nn.Conv2d(3 * C, 16, 1)
        self.w2 = nn.Conv2d(16, C, 1, bias=False)
        with torch.no_grad():
            self.w1.weight.copy_(torch.from_numpy(rng.normal(0, 0.3, (16, 3 * C, 1, 1))))
            self.w1.bias.zero_()
            self.w2.weight.copy_(torch.from_numpy(rng.normal(0, 0.1, (C, 16, 1, 1))))

    def alive(self, x):
        return F.max_pool2d(x[:, 3:4], 3, stride=1, padding=1) > 0.1

    def forward(self, x):
        pre = self.alive(x)
        y = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="circular"), self.kernels, groups=C)
        x = x + self.w2(F.relu(self.w1(y)))
        return x * (pre & self.alive(x)).double()


ca = CA()
seed = torch.zeros(1, C, H, H)
seed[:, 3:, H // 2, H // 2] = 1.0
target = torch.zeros(1, 3, H, H)
target[:, :, 2:6, 2:6] = 0.5
opt = torch.optim.Adam(ca.parameters(), lr=5e-3)
for it in range(6):
    x = seed
    for _ in range(4):
        x = ca(x)
    loss = F.mse_loss(x[:, :3], target)
    opt.zero_grad()
    loss.backward()
    for p in ca.parameters():
        p.grad /= p.grad.norm() + 1e-8
    opt.step()
    print(it, f"{loss.item():.7f}", int(ca.alive(x).sum().item()))
print(ca.kernels.shape, [n for n, _ in ca.named_buffers()])
print(x[0, 3, 2:6, 2:6].detach().numpy().round(4))
