# Conv2d padding_mode reflect/replicate/circular/zeros
import torch
import torch.nn as nn

x = torch.arange(16.0).reshape(1, 1, 4, 4)
for mode in ["zeros", "reflect", "replicate", "circular"]:
    c = nn.Conv2d(1, 1, 3, padding=1, padding_mode=mode, bias=False)
    with torch.no_grad():
        c.weight.fill_(1.0 / 9)
    print(mode)
    print(c(x)[0, 0])
print(nn.Conv2d(1, 1, 3, padding=1, padding_mode="reflect"))
