import math
import torch

n = 8
t = torch.arange(n) / n
signal = torch.sin(2 * math.pi * t) + 0.5 * torch.cos(2 * math.pi * 3 * t)
k = torch.arange(n).reshape(-1, 1)
C = torch.cos(2 * math.pi * k * torch.arange(n) / n)
S = -torch.sin(2 * math.pi * k * torch.arange(n) / n)
re, im = C @ signal, S @ signal
mag = torch.sqrt(re ** 2 + im ** 2)
print(mag.round(decimals=6))
print(torch.fft.fftfreq(n), torch.fft.rfftfreq(n, d=0.5))
print(torch.fft.fftshift(torch.arange(6)), torch.fft.ifftshift(torch.arange(6)))
print(torch.fft.fftshift(torch.fft.fftfreq(5)), torch.fft.fftshift(torch.arange(6).reshape(2, 3), dim=1))
freqs = torch.fft.fftfreq(n, d=1 / n)
peak = freqs[mag[: n // 2].argmax()]
print(peak, mag.argsort(descending=True)[:4].sort().values)
back = (C @ re + (-S) @ im) / n
print(torch.allclose(back, signal))
w = torch.tensor([0.3, -0.2], requires_grad=True)
padded = torch.cat([w, torch.zeros(6)])
power = ((C @ padded) ** 2 + (S @ padded) ** 2).sum()
power.backward()
print(round(power.item(), 10), w.grad)
x = torch.linspace(0, 2 * math.pi, 9)[:-1]
window = torch.hann_window(8, periodic=True)
print(window.round(decimals=6), torch.hamming_window(4), torch.blackman_window(3, periodic=False).round(decimals=6))
conv = torch.nn.functional.conv1d(signal.view(1, 1, -1), torch.tensor([[[0.25, 0.5, 0.25]]]), padding=1)
print(conv.squeeze().round(decimals=6))
