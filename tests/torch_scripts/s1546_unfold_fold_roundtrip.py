# im2col/col2im: F.unfold and F.fold with stride, padding and dilation; overlap counts
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(2 * 3 * 4 * 5, dtype=torch.float64).reshape(2, 3, 4, 5).requires_grad_()
cols = F.unfold(x, kernel_size=(2, 3), dilation=1, padding=1, stride=(2, 1))
print(cols.shape, cols.grad_fn.name())
print(cols[0, :6, :4])
back = F.fold(cols, output_size=(4, 5), kernel_size=(2, 3), padding=1, stride=(2, 1))
print(back.shape, back.grad_fn.name())
ones = torch.ones_like(x)
count = F.fold(F.unfold(ones, (2, 3), padding=1, stride=(2, 1)), (4, 5), (2, 3), padding=1,
               stride=(2, 1))
print(count[0, 0])
print(torch.allclose(back / count, x))
back.sum().backward()
print(x.grad[0, 0])
u = nn.Unfold(kernel_size=2, dilation=2)
print(u, u(x.detach()).shape)
f = nn.Fold(output_size=(3, 3), kernel_size=2)
print(f, f(torch.ones(1, 4, 4)))
try:
    F.fold(torch.ones(1, 5, 4), (3, 3), 2)
except RuntimeError as e:
    print(str(e)[:150])
