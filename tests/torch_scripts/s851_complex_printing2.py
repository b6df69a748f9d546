# Complex numbers in signal snippets: building with torch.complex / polar, printing shapes,
# abs/angle, conj, real/imag views, multiplication by 1j, and view_as_real
import math
import torch

z = torch.complex(torch.tensor([1.0, 0.0, -1.0]), torch.tensor([1.0, 2.0, 0.5]))
print(z, z.dtype, z.abs(), z.angle())
print(z.conj(), z.real, z.imag, z * 1j, z * z.conj())
p = torch.polar(torch.tensor([2.0, 1.0]), torch.tensor([0.0, math.pi / 2]))
print(p.real.round(decimals=6) + 0.0, p.imag)
print(torch.view_as_real(z), torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print(torch.tensor([1 + 2j, 3 - 1j]), torch.zeros(2, dtype=torch.complex64), torch.tensor(2j))
print((z @ z), z.sum(), z.mean(), torch.exp(1j * torch.tensor([0.0, math.pi])).real)
print(torch.tensor([[1 + 1j, 2], [0, 1j]]) @ torch.tensor([1.0 + 0j, 1.0]))
