# F.pad constant/reflect/replicate/circular and gradients (reflect/circular fold back)
import torch
import torch.nn.functional as F

x = torch.tensor([[[1.0, 2.0, 3.0, 4.0]]], requires_grad=True)
for mode in ["constant", "reflect", "replicate", "circular"]:
    x.grad = None
    y = F.pad(x, (2, 1), mode=mode)
    (y * torch.arange(1.0, 8.0)).sum().backward()
    print(mode, y.detach(), x.grad)
print(F.pad(torch.ones(2, 2), (1, 1, 0, 1), value=-1.0))
print(F.pad(torch.arange(6.0).reshape(1, 1, 2, 3), (1, 1, 1, 1), mode="reflect"))
