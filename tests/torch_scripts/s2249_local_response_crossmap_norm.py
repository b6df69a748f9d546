import torch
import torch.nn as nn

x = torch.arange(1 * 5 * 2 * 2, dtype=torch.float64).view(1, 5, 2, 2) / 10
lrn = nn.LocalResponseNorm(size=3, alpha=1e-2, beta=0.75, k=2.0)
y = lrn(x)
print(y[0, :, 0, 0].round(decimals=6))
sq = x.pow(2)
padded = torch.nn.functional.pad(sq, (0, 0, 0, 0, 1, 1))
div = torch.stack([padded[:, c:c + 3].sum(1) for c in range(5)], 1)
manual = x / (2.0 + 1e-2 / 3 * div) ** 0.75
print(torch.allclose(manual, y))
print(lrn, nn.LocalResponseNorm(2)(torch.ones(1, 3, 4))[0, :, 0].round(decimals=6))
cm = nn.CrossMapLRN2d(size=3, alpha=1e-2, beta=0.75, k=2.0)
print(torch.allclose(cm(x), y), cm)
xr = x.clone().requires_grad_()
lrn(xr).sum().backward()
print(xr.grad[0, :, 1, 1].round(decimals=6))
big = nn.LocalResponseNorm(5, alpha=1.0, beta=0.5, k=1.0)
print(big(torch.ones(1, 4, 1, 1)).flatten().round(decimals=6))
