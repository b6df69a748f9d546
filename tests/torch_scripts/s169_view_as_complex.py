import torch

x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], requires_grad=True)
z = torch.view_as_complex(x)
print(z, z.dtype, z.grad_fn.name())
w = z * torch.tensor([1j, 2 + 0j, 1 - 1j])
r = torch.view_as_real(w)
print(r, r.grad_fn.name())
loss = (w.abs() ** 2).sum()
loss.backward()
print(x.grad)
c = torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([0.0, -1.0]))
print(c, c.real, c.imag, c.angle(), c.conj(), c.conj().is_conj())
print(torch.polar(torch.tensor([2.0]), torch.tensor([0.5])))
try:
    torch.view_as_complex(torch.ones(3, 3))
except RuntimeError as e:
    print("RuntimeError:", e)
