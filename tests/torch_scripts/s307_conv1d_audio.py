import torch
import torch.nn as nn
import torch.nn.functional as F

# 1-D conv net over a toy waveform: dilations, groups, transposed conv upsampling
x = torch.sin(torch.linspace(0, 12, 64)).view(1, 1, 64).repeat(2, 1, 1)
x[1] *= 0.5
conv = nn.Conv1d(1, 4, kernel_size=5, padding=2, dilation=1)
dil = nn.Conv1d(4, 4, 3, padding=2, dilation=2, groups=2)
down = nn.Conv1d(4, 8, 4, stride=2, padding=1)
up = nn.ConvTranspose1d(8, 4, 4, stride=2, padding=1)
pool = nn.MaxPool1d(2, return_indices=True)
unpool = nn.MaxUnpool1d(2)
for m in (conv, dil, down, up):
    with torch.no_grad():
        m.weight.copy_(torch.cos(torch.arange(m.weight.numel()) * 0.3).view_as(m.weight) * 0.2)
        m.bias.zero_()
h = F.relu(conv(x))
h = h + dil(h)
d = down(h)
u = up(d)
print(h.shape, d.shape, u.shape, dil.weight.shape)
p, idx = pool(u)
r = unpool(p, idx, output_size=u.shape)
print(p.shape, idx.dtype, r.shape, round(r.abs().sum().item(), 5))
loss = F.mse_loss(u[:, :1], x)
loss.backward()
print(round(loss.item(), 6), [round(m.weight.grad.norm().item(), 6) for m in (conv, dil, down, up)])
print(F.avg_pool1d(x, 4, stride=4).shape, F.adaptive_max_pool1d(x, 5).shape, F.lp_pool1d(x.abs(), 2, 4).shape)
print(nn.Conv1d(3, 6, 3, padding="same", padding_mode="circular"))
y = nn.Conv1d(2, 2, 3, padding=1, padding_mode="reflect", bias=False)
with torch.no_grad():
    y.weight.fill_(1.0)
print(y(torch.arange(10.).view(1, 2, 5)))
try:
    conv(torch.ones(1, 3, 10))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    nn.Conv1d(3, 4, 3, groups=2)
except ValueError as e:
    print("ValueError:", e)
