# Frequency-domain filtering: rfft, zero high frequencies, irfft; convolution theorem check; complex abs/angle of spectrum
import torch

n = 16
t = torch.arange(n, dtype=torch.float64)
signal = torch.sin(2 * torch.pi * t / 8) + 0.5 * torch.sin(2 * torch.pi * 5 * t / 16)
spec = torch.fft.rfft(signal)
print(spec.shape, torch.round(spec.abs(), decimals=6))
spec[4:] = 0
low = torch.fft.irfft(spec, n=n)
print(torch.round(low, decimals=6))
a = torch.tensor([1.0, 2.0, 3.0, 0.0, 0.0])
b = torch.tensor([0.5, -1.0, 0.0, 0.0, 0.0])
circ = torch.fft.ifft(torch.fft.fft(a) * torch.fft.fft(b)).real
print(torch.round(circ, decimals=10))
print(torch.round(torch.fft.fft(torch.tensor([1.0, 0.0, 0.0, 0.0])).angle(), decimals=6), torch.fft.fft(torch.ones(4)).real)
print(torch.fft.fft2(torch.eye(2)), torch.fft.ifft2(torch.fft.fft2(torch.arange(4.0).view(2, 2))).real)
