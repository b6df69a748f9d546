import torch

t = torch.arange(64, dtype=torch.float64) / 16
sig = torch.sin(2 * torch.pi * 2 * t) + 0.5 * torch.cos(2 * torch.pi * 5 * t)
sig.requires_grad_()
win = torch.hann_window(16)
print(win[:4].round(decimals=5))
S = torch.stft(sig, n_fft=16, hop_length=4, window=win, return_complex=True)
print(S.shape, S.dtype)
mag = S.abs()
print(mag[:, 3].round(decimals=4))
(mag ** 2).sum().backward()
print(sig.grad[:6].round(decimals=4))
back = torch.istft(S.detach(), n_fft=16, hop_length=4, window=win, length=64)
print(torch.allclose(back, sig.detach(), atol=1e-10))
print(torch.hamming_window(5), torch.blackman_window(5, periodic=False), torch.bartlett_window(4))
print(torch.kaiser_window(5, periodic=False, beta=8.0).round(decimals=5))
