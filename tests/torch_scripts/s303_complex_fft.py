import torch
import math

z = torch.tensor([1 + 1j, -2 + 0.5j, 3j])
print(z.dtype, z.real, z.imag, z.abs(), z.angle())
print(z.conj(), z.conj().is_conj(), z.conj().resolve_conj().is_conj())
print(torch.view_as_real(z).shape, torch.polar(torch.tensor([2.0]), torch.tensor([math.pi / 2])))
print(torch.complex(torch.tensor([1.0]), torch.tensor([2.0])), (z * z.conj()).real)
print(z.exp().abs(), torch.sgn(z), z.reciprocal())
t = torch.arange(8.)
sig = torch.cos(2 * math.pi * t / 8) + 0.5 * torch.sin(2 * math.pi * 2 * t / 8)
F = torch.fft.fft(sig)
print(F.dtype, [round(v, 4) for v in F.abs().tolist()])
print(torch.allclose(torch.fft.ifft(F).real, sig), torch.fft.fftfreq(8), torch.fft.rfftfreq(8, d=0.5))
R = torch.fft.rfft(sig)
print(R.shape, torch.allclose(torch.fft.irfft(R, n=8), sig))
print(torch.fft.fftshift(torch.arange(6)), torch.fft.ifftshift(torch.arange(6)))
img = torch.arange(16.).reshape(4, 4)
F2 = torch.fft.fft2(img)
print(F2[0, 0], torch.allclose(torch.fft.ifft2(F2).real, img))
print(torch.fft.rfft2(img).shape, torch.fft.fftn(img, s=(2, 2)).shape)
print(torch.fft.fft(sig, norm="ortho").abs().pow(2).sum().round(decimals=6), sig.pow(2).sum())
# gradient through rfft power spectrum
x = sig.clone().requires_grad_()
P = torch.fft.rfft(x).abs().pow(2)
P[1].backward()
print([round(v, 4) for v in x.grad.tolist()])
w = torch.tensor([0.5 + 0.5j, 1 - 1j], requires_grad=True)
loss = (w * w).abs().sum()
loss.backward()
print(w.grad)
print(torch.tensor([1, 2]) * 1j, (torch.ones(2, dtype=torch.complex64) + 1).dtype)
try:
    torch.tensor([1 + 1j]) < 0
except RuntimeError as e:
    print("RuntimeError:", e)
