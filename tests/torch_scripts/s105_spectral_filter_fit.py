import math

import torch

# Fit a smooth spectral filter so that filtering a noisy signal in the frequency domain
# (rfft -> multiply -> irfft) reproduces a clean target; gradient descent on the filter.
n = 64
t = torch.arange(n, dtype=torch.float64) / n
clean = torch.sin(2 * math.pi * 3 * t) + 0.5 * torch.cos(2 * math.pi * 5 * t)
noisy = clean + 0.3 * torch.sin(2 * math.pi * 17 * t) + 0.2 * torch.cos(2 * math.pi * 23 * t)

spectrum = torch.fft.rfft(noisy)
print(spectrum.shape, spectrum.dtype, (spectrum.abs() > 1).nonzero().flatten().tolist())
print(spectrum[[3, 5, 17, 23]].abs(), spectrum[5].real, spectrum[17].imag)
print(torch.fft.rfftfreq(n, d=1.0 / n)[:6])

gain = torch.zeros(n // 2 + 1, requires_grad=True)
opt = torch.optim.Adam([gain], lr=0.1)
for step in range(150):
    opt.zero_grad()
    filtered = torch.fft.irfft(spectrum * torch.sigmoid(gain), n=n)
    loss = ((filtered - clean) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(step, f"{loss.item():.6f}", f"{gain.grad.abs().max().item():.6f}")

kept = torch.sigmoid(gain.detach()) > 0.5
print(kept.nonzero().flatten().tolist())
print(f"{loss.item():.6f}")
print(torch.fft.irfft(spectrum * kept, n=n)[:5])
