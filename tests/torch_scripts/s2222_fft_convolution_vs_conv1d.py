import torch
import torch.nn.functional as F

signal = torch.tensor([1.0, 3.0, -2.0, 0.5, 4.0, 1.0, 0.0, -1.0])
kernel = torch.tensor([0.25, 0.5, 0.25])
n = signal.numel() + kernel.numel() - 1
full = torch.fft.irfft(torch.fft.rfft(signal, n=n) * torch.fft.rfft(kernel, n=n), n=n)
print(full.round(decimals=6))
direct = F.conv1d(signal.view(1, 1, -1), kernel.flip(0).view(1, 1, -1), padding=2).view(-1)
print(direct.round(decimals=6), torch.allclose(full, direct))
same = F.conv1d(signal.view(1, 1, -1), kernel.flip(0).view(1, 1, -1), padding="same").view(-1)
print(torch.allclose(same, full[1:-1]))
circ = torch.fft.ifft(torch.fft.fft(signal) * torch.fft.fft(kernel, n=8)).real
padded = F.pad(signal.view(1, 1, -1), (2, 0), mode="circular")
print(torch.allclose(circ, F.conv1d(padded, kernel.flip(0).view(1, 1, -1)).view(-1)))
corr = torch.fft.irfft(torch.fft.rfft(signal, n=16).conj() * torch.fft.rfft(signal, n=16), n=16)
print(corr[:4].round(decimals=6), (signal * signal).sum().item())
k = kernel.clone().requires_grad_()
out = torch.fft.irfft(torch.fft.rfft(signal, n=n) * torch.fft.rfft(k, n=n), n=n)
out.pow(2).sum().backward()
k2 = kernel.clone().requires_grad_()
F.conv1d(signal.view(1, 1, -1), k2.flip(0).view(1, 1, -1), padding=2).pow(2).sum().backward()
print(k.grad.round(decimals=5), torch.allclose(k.grad, k2.grad))
img = torch.arange(16.0).view(4, 4)
blur = torch.ones(2, 2) / 4
fimg = torch.fft.irfft2(torch.fft.rfft2(img, s=(5, 5)) * torch.fft.rfft2(blur, s=(5, 5)), s=(5, 5))
print(fimg[1:4, 1:4].round(decimals=5))
print(F.conv2d(img.view(1, 1, 4, 4), blur.view(1, 1, 2, 2)).view(3, 3))
