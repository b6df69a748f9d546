import math
import torch

torch.set_printoptions(precision=4)
fs = 64.0
t = torch.arange(128, dtype=torch.float64) / fs
carrier = 8.0
msg = 1.0 + 0.5 * torch.cos(2 * math.pi * 1.0 * t)
signal = msg * torch.cos(2 * math.pi * carrier * t + 0.3)
# analytic signal via FFT (Hilbert transform)
S = torch.fft.fft(signal)
h = torch.zeros(128)
h[0] = 1
h[1:64] = 2
h[64] = 1
analytic = torch.fft.ifft(S * h)
print(analytic.dtype, analytic.shape)
env = analytic.abs()
print((env[10:118] - msg[10:118]).abs().max() < 0.05)
phase = torch.angle(analytic * torch.exp(-2j * math.pi * carrier * t))
print(phase[20:24])
baseband = analytic * torch.polar(torch.ones(128), -2 * math.pi * carrier * t)
print(baseband[:3])
print(baseband.real.dtype, torch.is_complex(baseband), baseband.conj().imag[:2])
# fit a complex gain g so that g * x ~ y by gradient descent on real parameters
x = torch.exp(1j * torch.linspace(0, 3, 20))
g_true = torch.tensor(0.8 - 0.6j)
y = g_true * x
gr = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([gr], lr=0.05)
for _ in range(100):
    opt.zero_grad()
    g = torch.complex(gr[0], gr[1])
    loss = (g * x - y).abs().pow(2).mean()
    loss.backward()
    opt.step()
print(gr.detach().round(decimals=4), round(loss.item(), 8))
# directly complex parameter (Wirtinger calculus: grad is conj of dL/dz*)
gz = torch.zeros((), dtype=torch.complex128, requires_grad=True)
loss = (gz * x - y).abs().pow(2).sum()
loss.backward()
print(gz.grad)
print(torch.view_as_real(y[:2]))
