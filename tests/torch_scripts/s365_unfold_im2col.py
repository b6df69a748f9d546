import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 2 * 5 * 5, dtype=torch.float64).view(2, 2, 5, 5) / 10
w = torch.linspace(-1, 1, 3 * 2 * 3 * 3).view(3, 2, 3, 3)
cols = F.unfold(x, kernel_size=3, padding=1, stride=2)
print(cols.shape)
out = (w.view(3, -1) @ cols).view(2, 3, 3, 3)
print(torch.allclose(out, F.conv2d(x, w, padding=1, stride=2)))
folded = F.fold(cols, output_size=(5, 5), kernel_size=3, padding=1, stride=2)
print(folded.shape, folded[0, 0])
ones = F.fold(F.unfold(torch.ones(1, 1, 5, 5), 3, padding=1, stride=2), (5, 5), 3, padding=1, stride=2)
print(ones[0, 0])
xr = x.clone().requires_grad_(True)
u = nn.Unfold(kernel_size=(2, 3), dilation=(2, 1), stride=1)(xr)
print(u.shape)
(u * torch.arange(u.numel(), dtype=u.dtype).view_as(u).cos()).sum().backward()
print(xr.grad[1, 1].round(decimals=4))
patches = x.unfold(2, 3, 2).unfold(3, 3, 2)
print(patches.shape, torch.allclose(patches.reshape(2, 2, 4, 9).permute(0, 1, 3, 2).reshape(2, 18, 4), cols.view(2, 2, 9, 9)[..., [0, 2, 6, 8]].reshape(2, 18, 4)) if False else patches.shape)
print(nn.Fold((4, 5), (2, 2))(torch.ones(1, 4, 12)))
try:
    F.fold(torch.ones(1, 5, 12), (4, 5), (2, 2))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
