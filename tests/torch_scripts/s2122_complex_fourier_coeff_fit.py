import math
import torch

t = torch.linspace(0, 1, 32)[:-1]
signal = torch.sin(2 * math.pi * t) + 0.5 * torch.cos(6 * math.pi * t)
freqs = torch.arange(4)
coef = torch.zeros(4, dtype=torch.complex128, requires_grad=True)
basis = torch.exp(2j * math.pi * freqs[:, None] * t[None, :])
opt = torch.optim.SGD([coef], lr=0.4, momentum=0.5)
for step in range(80):
    opt.zero_grad()
    recon = (coef[:, None] * basis).sum(0).real
    loss = ((recon - signal) ** 2).mean()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(step, round(loss.item(), 5))
print(coef.detach().abs().round(decimals=2))
spec = torch.fft.fft(signal)
print(spec.abs()[:4].round(decimals=3))
print(coef.grad.dtype, coef.grad.shape)
