import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 11.0).reshape(1, 1, 10)
for mode in ("zeros", "reflect", "replicate", "circular"):
    conv = nn.Conv1d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    with torch.no_grad():
        conv.weight.copy_(torch.tensor([[[1.0, -2.0, 1.0]]]))
    print(mode, conv(x).detach().squeeze().tolist())
same = nn.Conv1d(1, 2, 4, padding="same", dilation=2, bias=False)
with torch.no_grad():
    same.weight.copy_(torch.arange(8.0).reshape(2, 1, 4) / 10)
print(same(x).shape, same(x)[0, 1].detach().round(decimals=3))
valid = nn.Conv1d(2, 4, 3, padding="valid", groups=2)
print(valid.weight.shape, valid(torch.ones(1, 2, 6)).shape)
k = 3
causal = nn.Conv1d(1, 1, k, dilation=2, bias=False)
with torch.no_grad():
    causal.weight.fill_(1.0)
y = causal(F.pad(x, ((k - 1) * 2, 0)))
print(y.shape, y.squeeze().detach().tolist())
print(F.conv1d(x, torch.ones(1, 1, 2), stride=2), F.conv1d(x, torch.ones(1, 1, 3), padding=2).shape)
print(F.avg_pool1d(x, 3, stride=1, padding=1, count_include_pad=False).squeeze())
print(F.max_pool1d(x, 4, stride=3, ceil_mode=True).squeeze(), F.max_pool1d(x, 2, return_indices=True)[1].squeeze())
print(F.adaptive_avg_pool1d(x, 3).squeeze(), F.adaptive_max_pool1d(x, 4).squeeze())
print(F.lp_pool1d(x, 2, 5).squeeze().round(decimals=4))
c2 = nn.Conv2d(1, 1, (1, 3), padding=(0, 1), padding_mode="reflect", bias=False)
with torch.no_grad():
    c2.weight.fill_(1 / 3)
print(c2(torch.arange(8.0).reshape(1, 1, 2, 4)).detach().round(decimals=4))
try:
    nn.Conv1d(1, 1, 3, padding="same", stride=2)
except ValueError as e:
    print("ValueError", e)
try:
    nn.Conv1d(1, 1, 3, padding_mode="mirror")
except ValueError as e:  # (its words name a set: its order changes from run to run)
    print("ValueError", str(e).split(" one of ")[0], str(e).split(", ")[-1])
