# complex autograd: abs, angle, real/imag, conj, and a real loss of complex intermediates
import torch

z = torch.tensor([1.0 + 1.0j, -2.0 + 0.5j, 3.0j], requires_grad=True)
z.abs().sum().backward(); print(z.grad); z.grad = None
z.angle().sum().backward(); print(z.grad); z.grad = None
(z.real * 2 + z.imag * 3).sum().backward(); print(z.grad); z.grad = None
(z * z.conj()).real.sum().backward(); print(z.grad); z.grad = None
(z ** 2).abs().sum().backward(); print(z.grad); z.grad = None
w = torch.tensor([0.5, -1.0], requires_grad=True)
c = torch.complex(w, w * 2)
(c.exp().abs() ** 2).sum().backward(); print(w.grad)
p = torch.polar(torch.tensor([2.0], requires_grad=True), torch.tensor([0.5], requires_grad=True))
print(p, p.dtype)
r = torch.view_as_real(z.detach() * 2)
print(r)
