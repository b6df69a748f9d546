# padding='same' and 'valid' strings, stride tuples
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.ones(2, 3, 7, 6)
for kw in [dict(padding="same"), dict(padding="valid"), dict(stride=(2, 1), padding=(1, 0)), dict(kernel_size=(3, 1), padding="same", dilation=2)]:
    args = dict(kernel_size=3)
    args.update(kw)
    c = nn.Conv2d(3, 5, **args)
    print(kw, tuple(c(x).shape))
try:
    nn.Conv2d(3, 5, 3, padding="same", stride=2)
except ValueError as e:
    print("ValueError", e)
