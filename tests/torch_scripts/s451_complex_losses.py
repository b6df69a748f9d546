import torch

w = torch.tensor([0.5 + 0.5j, -1.0 + 0.2j, 0.3 - 0.7j], requires_grad=True)
A = torch.tensor([[1 + 1j, 2 - 1j, 0.5j], [0.0 + 0j, 1 - 1j, 3 + 0j]])
target = torch.tensor([1.0 + 0j, -1.0 + 2j])
r = A @ w - target
loss = (r.abs() ** 2).sum()
loss.backward()
print(round(loss.item(), 6), w.grad)
w.grad = None
loss2 = (r.conj() * r).real.sum() if False else torch.vdot(A @ w - target, A @ w - target).real
loss2.backward()
print(round(loss2.item(), 6), w.grad)
w.grad = None
ang = torch.angle(w).sum() + w.real.pow(2).sum() - w.imag.sum()
ang.backward()
print(round(ang.item(), 6), w.grad.real.round(decimals=6) + 0.0, w.grad.imag.round(decimals=6) + 0.0)
mag = torch.tensor([1.0, 2.0], requires_grad=True)
ph = torch.tensor([0.3, -1.2], requires_grad=True)
z = torch.polar(mag, ph)
(z * z.conj()).real.sum().backward()
print(z.detach(), mag.grad.round(decimals=6), ph.grad.round(decimals=6) + 0.0)
zz = torch.view_as_real(w.detach().clone().requires_grad_(True))
print(zz.shape, torch.view_as_complex(zz).dtype)
p = torch.tensor([1.0, 0.5], requires_grad=True)
zc = torch.complex(p, p ** 2)
(torch.exp(zc).abs().sum()).backward()
print(zc.detach(), p.grad)
h = torch.tensor([0.2, 1.0, -0.5], requires_grad=True)
H = h.to(torch.complex128) * torch.exp(1j * torch.arange(3.0))
H.imag.sum().backward()
print(H.detach(), h.grad)
print(torch.is_complex(H), H.real.dtype, (H.abs() > 0).all(), torch.linalg.norm(w.detach()))
