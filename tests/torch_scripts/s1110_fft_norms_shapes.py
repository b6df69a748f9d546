# FFT variants: norm=, rfft2/irfft2 with s=, fftshift, hfft/ihfft, fftfreq, gradient through rfft
import torch

x = torch.tensor([1.0, 2.0, 0.0, -1.0, 3.0, 0.5])
print(torch.fft.fft(x, norm="ortho"), torch.fft.rfft(x, norm="forward"))
print(torch.fft.irfft(torch.fft.rfft(x), n=6))
img = torch.arange(12.0).view(3, 4)
print(torch.fft.rfft2(img).shape, torch.fft.irfft2(torch.fft.rfft2(img), s=(3, 4)))
print(torch.fft.fftshift(torch.arange(6)), torch.fft.ifftshift(torch.arange(6)), torch.fft.fftfreq(5, d=0.5), torch.fft.rfftfreq(6))
print(torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0]) + 0j), torch.fft.ihfft(x))
print(torch.fft.fftn(img, dim=(0,)).shape, torch.fft.ifft(torch.fft.fft(x)).real)
z = x.clone().requires_grad_()
torch.fft.rfft(z).abs().pow(2).sum().backward()
print(z.grad)
