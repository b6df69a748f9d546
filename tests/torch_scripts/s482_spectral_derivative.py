import torch

N = 32
L = 2 * torch.pi
x = torch.arange(N) * (L / N)
k = torch.fft.fftfreq(N, d=L / N) * 2 * torch.pi
a = torch.tensor(1.3, requires_grad=True)
u = torch.exp(torch.sin(a * 0 + x)) * a
uh = torch.fft.fft(u)
du = torch.fft.ifft(1j * k * uh).real
exact = torch.cos(x) * torch.exp(torch.sin(x)) * a
print(torch.allclose(du, exact, atol=1e-8), round((du - exact).abs().max().item(), 10) < 1e-8)
loss = du.pow(2).mean()
loss.backward()
print(round(loss.item(), 6), round(a.grad.item(), 6))
uh_r = torch.fft.rfft(u.detach())
kr = torch.fft.rfftfreq(N, d=L / N) * 2 * torch.pi
d2 = torch.fft.irfft(-(kr ** 2) * uh_r, n=N)
print(d2[:4].round(decimals=5))
f = torch.sin(3 * x) + 0.5 * torch.cos(5 * x)
c = torch.fft.rfft(f) / N * 2
print(c.abs().round(decimals=4)[:7])
sol_h = torch.fft.rfft(f) / torch.where(kr == 0, torch.ones_like(kr), -(kr ** 2))
sol_h[0] = 0
sol = torch.fft.irfft(sol_h, n=N)
print(sol[:4].round(decimals=5), torch.allclose(-torch.fft.irfft(kr ** 2 * torch.fft.rfft(sol), n=N), f - f.mean(), atol=1e-8))
print(torch.fft.fftshift(k)[:4].round(decimals=3), torch.fft.ifftshift(torch.arange(5)))
