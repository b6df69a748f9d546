import torch
import torch.nn as nn
import torch.nn.functional as F

img = torch.arange(1 * 2 * 4 * 5, dtype=torch.float64).reshape(1, 2, 4, 5).requires_grad_()
cols = F.unfold(img, kernel_size=(2, 3), dilation=1, padding=1, stride=(2, 1))
print(cols.shape)
print(cols[0, :, 0].detach())
back = F.fold(cols, output_size=(4, 5), kernel_size=(2, 3), padding=1, stride=(2, 1))
print(back[0, 0].detach())
ones = F.fold(F.unfold(torch.ones(1, 1, 4, 5), 2), (4, 5), 2)
print(ones[0, 0])
(cols * torch.linspace(0, 1, cols.shape[-1])).sum().backward()
print(img.grad[0, 1].round(decimals=4))
u = nn.Unfold(kernel_size=2, stride=2)
f = nn.Fold(output_size=(4, 4), kernel_size=2, stride=2)
t = torch.arange(16.0).reshape(1, 1, 4, 4)
print(torch.equal(f(u(t)), t))
patches = t.unfold(2, 2, 2).unfold(3, 2, 2)
print(patches.shape, patches[0, 0, 1, 1])
print(F.unfold(t, kernel_size=3, dilation=2, padding=2).shape)
