import torch

x = torch.tensor([1.0, 2.0, 0.5, -1.0, 3.0, 0.0], requires_grad=True)
X = torch.fft.rfft(x)
print(X.detach())
X.abs().pow(2).sum().backward()
print(x.grad.round(decimals=6))
x.grad = None
F = torch.fft.fft(x)
F.real.sum().backward()
print(x.grad.round(decimals=6))
print(torch.fft.irfft(X.detach(), n=6).round(decimals=6))
print(torch.fft.fftfreq(6, d=0.5), torch.fft.rfftfreq(6))
print(torch.fft.fftshift(torch.arange(6)), torch.fft.ifftshift(torch.arange(6)))
img = torch.arange(12.0).reshape(3, 4).requires_grad_()
F2 = torch.fft.fft2(img, norm="ortho")
print(torch.view_as_real(F2.detach()).round(decimals=5)[0])
F2.abs().sum().backward()
print(img.grad.round(decimals=5))
print(torch.fft.ifft(torch.fft.fft(x.detach())).real.round(decimals=6))
print(torch.fft.rfftn(img.detach(), s=(4, 4)).shape, torch.fft.hfft(X.detach()).shape)
# convolution through the frequency domain
a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([0.0, 1.0, 0.5])
n = 5
print(torch.fft.irfft(torch.fft.rfft(a, n) * torch.fft.rfft(b, n), n).round(decimals=6))
