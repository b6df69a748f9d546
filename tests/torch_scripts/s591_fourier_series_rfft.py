import math
import torch

N = 32
t = torch.arange(N) / N
sig = 1.0 + 2.0 * torch.sin(2 * math.pi * 3 * t) + 0.5 * torch.cos(2 * math.pi * 5 * t)
S = torch.fft.rfft(sig)
freqs = torch.fft.rfftfreq(N, d=1 / N)
print(S.shape, S.dtype, freqs[:7])
amp = S.abs() / N * 2
amp[0] /= 2
print(amp.round(decimals=4)[:7])
top = amp.topk(3)
print(freqs[top.indices], top.values.round(decimals=4))
rec = torch.fft.irfft(S, n=N)
print(torch.allclose(rec, sig), rec.dtype)
F = torch.fft.fft(sig)
print(torch.allclose(F[:N // 2 + 1], S), torch.fft.fftfreq(8), torch.fft.fftshift(torch.fft.fftfreq(8)))
Sf = S.clone()
Sf[4:] = 0
low = torch.fft.irfft(Sf, n=N)
print(low[:4].round(decimals=4))
print(torch.fft.fft(torch.tensor([1.0, 0.0, 0.0, 0.0])), torch.fft.ifft(torch.ones(4, dtype=torch.complex128)))
x = sig.clone().requires_grad_()
power = torch.fft.rfft(x).abs().pow(2)
power[3].backward()
print(x.grad[:4].round(decimals=4))
print(torch.fft.rfft(sig, norm="ortho")[3].abs().round(decimals=4), torch.fft.rfft(sig, norm="forward")[3].abs().round(decimals=4))
img = torch.arange(16.0).reshape(4, 4)
print(torch.fft.fft2(img)[0, 0], torch.fft.rfft2(img).shape, torch.fft.ifftshift(torch.arange(5)))
print(torch.fft.hfft(torch.tensor([1.0, 2.0, 3.0], dtype=torch.complex128)).shape)
