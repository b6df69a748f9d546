# gradients through complex intermediates: abs of FFT, real/imag parts, angle, view_as_real, complex mul of params
import torch

x = torch.tensor([1.0, 2.0, 0.5, -1.0], requires_grad=True)
X = torch.fft.fft(x)
loss = X.abs().pow(2).sum()
loss.backward()
print(loss, x.grad)
x.grad = None
R = torch.fft.rfft(x)
(R.real.sum() + 2 * R.imag.sum()).backward()
print(R, x.grad)
x.grad = None
torch.fft.irfft(torch.fft.rfft(x) * torch.tensor([1.0, 0.5, 0.0]), n=4).sum().backward()
print(x.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5, -1.0], requires_grad=True)
z = torch.complex(a, b)
w = (z * z.conj()).real.sum() + torch.view_as_real(z * (1 + 1j)).sum()
w.backward()
print(w, a.grad, b.grad)
print(torch.fft.fftfreq(4), torch.fft.rfftfreq(5, d=0.5), torch.fft.fftshift(torch.arange(5)))
print(torch.fft.fft2(torch.eye(2)), torch.fft.ifft(torch.fft.fft(x.detach())).real)
