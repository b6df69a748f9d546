import torch
import torch.nn as nn
import torch.nn.functional as F

img = torch.arange(2 * 3 * 4 * 4, dtype=torch.float64).view(2, 3, 4, 4)
cols = F.unfold(img, kernel_size=2, stride=2)
print(cols.shape)
print(cols[0, :4])
back = F.fold(cols, output_size=(4, 4), kernel_size=2, stride=2)
print(torch.equal(back, img))
cols2 = F.unfold(img, kernel_size=(2, 3), padding=1, dilation=1, stride=1)
print(cols2.shape)
ones = torch.ones(1, 1, 4, 4)
cnt = F.fold(F.unfold(ones, 3, padding=1), (4, 4), 3, padding=1)
print(cnt)
unf = nn.Unfold(kernel_size=2)
fold = nn.Fold(output_size=(3, 3), kernel_size=2)
print(unf, fold)
u = unf(torch.arange(9.).view(1, 1, 3, 3))
print(u, fold(u))

w = torch.randn(5, 3, 2, 2)
conv_via_unfold = (w.view(5, -1) @ F.unfold(img, 2)).view(2, 5, 3, 3)
print(torch.allclose(conv_via_unfold, F.conv2d(img, w)))

t = torch.arange(10)
print(t.unfold(0, 3, 2))
print(t.view(2, 5).unfold(1, 2, 1).shape)
print(torch.arange(12.).view(3, 4).unfold(0, 2, 1))
x = torch.arange(8., requires_grad=True)
x.unfold(0, 3, 1).sum().backward()
print(x.grad)
