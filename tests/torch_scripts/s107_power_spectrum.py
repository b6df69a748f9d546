import math

import torch

# The power spectrum of a two-tone signal (a periodogram), its peaks, a 2-D FFT of an image
# patch, and the gradient of spectral power with respect to the signal.
fs = 100.0
n = 200
t = torch.arange(n) / fs
x = torch.sin(2 * math.pi * 12.0 * t) + 0.5 * torch.sin(2 * math.pi * 30.0 * t)
X = torch.fft.fft(x)
freqs = torch.fft.fftfreq(n, d=1 / fs)
power = X.abs() ** 2 / n
half = power[: n // 2]
top = torch.topk(half, 2)
print(freqs[top.indices], top.values)
print(f"{power.sum().item():.6f}", f"{(x ** 2).sum().item():.6f}")  # Parseval
print(torch.fft.fftshift(freqs)[:3], torch.fft.ifft(X).real[1:4], torch.fft.ifft(X).imag.abs().max() < 1e-12)
print(torch.fft.fft(torch.tensor([1.0, 2.0, 3.0, 4.0]), norm="ortho"))

img = torch.arange(16.0).reshape(4, 4) ** 0.5
F = torch.fft.fft2(img)
print(F[0, :2], torch.fft.rfft2(img).shape, torch.fft.irfft2(torch.fft.rfft2(img), s=img.shape).sub(img).abs().max() < 1e-12)
print(torch.fft.fftn(img, dim=(0,))[:, 0])

sig = x.clone().requires_grad_(True)
band = torch.fft.rfft(sig)[20:30]
(band.abs() ** 2).sum().backward()
print(sig.grad[1:4])
print(torch.fft.hfft(torch.tensor([1.0 + 0j, 2 - 1j, 0.5j]), n=4), torch.fft.ihfft(torch.tensor([1.0, 2.0, 0.5, -1.0])))
