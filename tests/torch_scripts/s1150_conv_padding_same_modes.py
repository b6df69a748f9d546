# Conv1d/2d padding='same'/'valid', padding_mode reflect/replicate/circular, dilation with same, errors
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(10.0).view(1, 1, 10)
w = torch.tensor([[[1.0, 0.0, -1.0, 2.0]]])
print(F.conv1d(x, w, padding="same"), F.conv1d(x, w, padding="valid").shape)
print(F.conv1d(x, w[..., :3], padding="same", dilation=2))
for mode in ("zeros", "reflect", "replicate", "circular"):
    c = nn.Conv1d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    nn.init.constant_(c.weight, 1.0)
    print(mode, c(x))
c2 = nn.Conv2d(1, 1, (3, 2), padding="same", bias=False)
nn.init.constant_(c2.weight, 1.0)
print(c2(torch.arange(12.0).view(1, 1, 3, 4)))
try:
    nn.Conv1d(1, 1, 3, padding="same", stride=2)
except ValueError as e:
    print("ValueError:", e)
print(nn.Conv2d(3, 6, 3, groups=3).weight.shape, nn.Conv2d(2, 2, 1, padding_mode="circular"))
