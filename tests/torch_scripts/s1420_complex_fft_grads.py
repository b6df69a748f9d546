# FFT-based circular convolution and its gradient, rfft power spectrum
import torch

x = torch.tensor([1.0, 2.0, 0.0, -1.0], requires_grad=True)
k = torch.tensor([0.5, 0.25, 0.0, 0.25])
y = torch.fft.ifft(torch.fft.fft(x) * torch.fft.fft(k)).real
print(y)
(y * torch.arange(4.0)).sum().backward()
print(x.grad)
x.grad = None
P = torch.fft.rfft(x).abs() ** 2
print(P)
P.sum().backward()
print(x.grad)
print(torch.fft.fftfreq(4), torch.fft.rfftfreq(4))
