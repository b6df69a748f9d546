# Checking the conv output-size formula against Conv1d/2d with stride, padding, dilation,
# padding='same', groups; MaxPool ceil_mode; weights filled deterministically
import torch
import torch.nn as nn

def out_size(n, k, s=1, p=0, d=1):
    return (n + 2 * p - d * (k - 1) - 1) // s + 1

for (n, k, s, p, d) in [(10, 3, 1, 0, 1), (10, 3, 2, 1, 1), (11, 5, 3, 2, 2), (7, 2, 2, 0, 1)]:
    c = nn.Conv1d(1, 1, k, stride=s, padding=p, dilation=d)
    print(n, k, s, p, d, c(torch.ones(1, 1, n)).shape[-1], out_size(n, k, s, p, d))
same = nn.Conv2d(2, 4, 3, padding="same", dilation=2, bias=False)
print(same(torch.ones(1, 2, 6, 5)).shape, same)
g = nn.Conv2d(4, 4, 3, groups=2, padding=1, bias=False)
print(g.weight.shape)
with torch.no_grad():
    g.weight.fill_(1.0)
print(g(torch.arange(64.0).view(1, 4, 4, 4))[0, :, 1, 1])
print(nn.MaxPool2d(2, ceil_mode=True)(torch.arange(25.0).view(1, 1, 5, 5)), nn.MaxPool2d(2)(torch.ones(1, 1, 5, 5)).shape)
print(nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)(torch.arange(16.0).view(1, 1, 4, 4)))
try:
    nn.Conv2d(2, 4, 3, padding="same", stride=2)
except ValueError as e:
    print("ValueError", e)
try:
    nn.Conv2d(3, 4, 3, groups=2)
except ValueError as e:
    print("ValueError", e)
