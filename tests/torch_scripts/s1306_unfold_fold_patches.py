# F.unfold / F.fold round trip with overlapping patches and Tensor.unfold windows
import torch
import torch.nn.functional as F

x = torch.arange(16.0).reshape(1, 1, 4, 4)
cols = F.unfold(x, kernel_size=2, stride=1)
print(cols.shape)
print(cols[0, :, :3])
back = F.fold(cols, output_size=(4, 4), kernel_size=2, stride=1)
print(back[0, 0])
ones = F.fold(F.unfold(torch.ones_like(x), 2), (4, 4), 2)
print(torch.allclose(back / ones, x))
print(torch.arange(7.0).unfold(0, 3, 2))
