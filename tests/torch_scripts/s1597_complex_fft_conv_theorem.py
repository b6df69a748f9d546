# convolution theorem: circular convolution by FFT equals the direct sum; gradients agree
import torch

x = torch.tensor([1.0, 2.0, 0.0, -1.0], requires_grad=True)
k = torch.tensor([0.5, 0.25, 0.0, 0.25], requires_grad=True)
fft_conv = torch.fft.ifft(torch.fft.fft(x) * torch.fft.fft(k)).real
direct = torch.stack([sum(x[j] * k[(i - j) % 4] for j in range(4)) for i in range(4)])
print(fft_conv.detach(), direct.detach(), torch.allclose(fft_conv, direct))
(g1,) = torch.autograd.grad((fft_conv * torch.arange(4.0)).sum(), x, retain_graph=True)
(g2,) = torch.autograd.grad((direct * torch.arange(4.0)).sum(), x)
print(g1, torch.allclose(g1, g2))
r = torch.fft.irfft(torch.fft.rfft(x) * torch.fft.rfft(k), n=4)
print(torch.allclose(r, direct))
gk, = torch.autograd.grad(r.pow(2).sum(), k)
print(gk)
