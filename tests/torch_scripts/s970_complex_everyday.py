# complex tensors: construction, arithmetic, polar form, views as real, printing and reductions
import torch

z = torch.complex(torch.tensor([1.0, -2.0, 0.0]), torch.tensor([2.0, 0.5, -1.0]))
print(z, z.dtype)
print(z.real, z.imag, z.abs(), z.angle())
print(z.conj(), z.conj().is_conj(), z.conj().resolve_conj().is_conj())
print(z * (1 + 2j), z / z.abs())
print(torch.polar(torch.tensor([2.0, 1.0]), torch.tensor([0.0, torch.pi / 2])).real.round(decimals=4))
print(torch.view_as_real(z))
print(torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, -4.0]])))
print(z.sum(), z.mean(), z.prod())
print(torch.exp(1j * torch.tensor([0.0, torch.pi])).real.round(decimals=6))
print(torch.tensor([1 + 1j, 2 - 3j]).dtype, torch.tensor([1.0, 2.0], dtype=torch.complex64))
print(z.sgn(), torch.isreal(torch.tensor([1 + 0j, 1j])))
m = torch.tensor([[1 + 1j, 2], [0, 1 - 1j]])
print(m @ m.mH)
print(abs(torch.tensor(3 + 4j)), torch.tensor(3 + 4j).item())
