# Tensor.unfold sliding windows (a moving average) and F.unfold patches; gradients
import torch
import torch.nn.functional as F

x = torch.arange(1.0, 8.0, requires_grad=True)
win = x.unfold(0, 3, 2)
print(win)
win.mean(1).sum().backward()
print(x.grad)
img = torch.arange(16.0).reshape(1, 1, 4, 4).requires_grad_()
patches = F.unfold(img, kernel_size=2, stride=2)
print(patches)
(patches * torch.arange(4.0).reshape(1, 4, 1)).sum().backward()
print(img.grad)
print(F.fold(patches.detach(), output_size=(4, 4), kernel_size=2, stride=2).equal(img.detach()))
