# short-time Fourier transform of a chirp-like signal and its inverse
import torch

t = torch.linspace(0, 1, 64)
x = torch.sin(2 * torch.pi * (3 + 5 * t) * t)
win = torch.hann_window(16)
S = torch.stft(x, n_fft=16, hop_length=4, window=win, return_complex=True)
print(S.shape, S.dtype)
print(S.abs()[:3, :4])
y = torch.istft(S, n_fft=16, hop_length=4, window=win, length=64)
print(y.shape, torch.allclose(x, y, atol=1e-10))
xr = x.clone().requires_grad_()
P = torch.stft(xr, 16, hop_length=8, window=win, return_complex=True).abs().pow(2).sum()
P.backward()
print(round(P.item(), 8))
print(xr.grad[:8])
S2 = torch.stft(x, 8, hop_length=8, window=torch.ones(8), center=False, return_complex=True)
print(S2.shape, S2[:, 0])
try:
    torch.stft(x, 16)
except Exception as e:
    print(type(e).__name__, str(e)[:80])
