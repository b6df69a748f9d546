# real FFTs: norm modes, n padding/trimming, and gradients through magnitudes
import torch

x = torch.tensor([1.0, 2.0, 0.0, -1.0, 3.0, 0.5], requires_grad=True)
for norm in [None, "ortho", "forward", "backward"]:
    X = torch.fft.rfft(x, norm=norm)
    print(norm, X.shape, X.dtype, X.abs().detach())
X = torch.fft.rfft(x)
print(X.grad_fn.name())
X.abs().pow(2).sum().backward()
print(x.grad)
x.grad = None
y = torch.fft.irfft(torch.fft.rfft(x), n=6)
print(torch.allclose(y, x), y.grad_fn.name())
y.sum().backward()
print(x.grad)
print(torch.fft.rfft(x.detach(), n=8).shape, torch.fft.rfft(x.detach(), n=4).abs())
z = torch.tensor([1.0, 0.0, 2.0, 0.0], requires_grad=True)
spec = torch.fft.fft(z)
spec.real.sum().backward()
print(spec, z.grad)
print(torch.fft.rfftfreq(6), torch.fft.fftfreq(5, d=0.5))
