# complex autograd: gradients of real losses of complex tensors (conjugate Wirtinger convention)
import torch

z = torch.tensor([1.0 + 2.0j, -0.5 + 0.5j], requires_grad=True)
loss = (z.abs() ** 2).sum()
loss.backward()
print(z.grad)
z.grad = None
(z * z.conj()).real.sum().backward()
print(z.grad)
z.grad = None
z.angle().sum().backward()
print(z.grad)
z.grad = None
torch.view_as_real(z).sum().backward()
print(z.grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.complex(w, w * 2)
print(c, c.grad_fn.name())
(c.exp().abs()).sum().backward()
print(w.grad)
r = torch.tensor([2.0], requires_grad=True)
th = torch.tensor([0.5], requires_grad=True)
p = torch.polar(r, th)
p.imag.sum().backward()
print(p, r.grad, th.grad)
u = torch.tensor([3.0 + 4.0j], requires_grad=True)
torch.sgn(u).real.sum().backward()
print(torch.sgn(u.detach()), u.grad)
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)
