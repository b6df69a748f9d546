# 2-D FFTs, fftshift/ifftshift, hfft/ihfft, and gradients through them
import torch

img = torch.arange(12.0).reshape(3, 4).requires_grad_()
F2 = torch.fft.fft2(img)
print(F2.shape, F2.dtype, F2.grad_fn.name())
print(F2.abs().detach())
F2.abs().sum().backward()
print(img.grad)
sh = torch.fft.fftshift(torch.arange(6))
print(sh, torch.fft.ifftshift(sh))
print(torch.fft.fftshift(torch.arange(12).reshape(3, 4), dim=1))
img.grad = None
R = torch.fft.rfftn(img, dim=(0, 1))
back = torch.fft.irfftn(R, s=(3, 4), dim=(0, 1))
print(torch.allclose(back, img), R.shape)
(back * torch.arange(12.0).reshape(3, 4)).sum().backward()
print(img.grad)
h = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.fft.hfft(h.to(torch.complex128), n=4)
print(out, out.dtype)
print(torch.fft.ihfft(torch.tensor([1.0, 2.0, 3.0, 4.0])))
