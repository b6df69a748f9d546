import torch

z = torch.tensor([1 + 2j, -0.5 + 0.25j, 3 - 1j])
w = torch.tensor([[1 + 1j, 2], [0, 1j]])
print(w @ w, torch.linalg.norm(w), (w * w.conj()).real.sum(), w.T, w.mH, w.abs().sum())
print(torch.exp(z).real.round(decimals=4), torch.sqrt(z), z.sgn(), torch.stack([z, z.conj()]).shape)
print(torch.zeros(2, dtype=torch.cfloat), torch.ones(1, dtype=torch.complex128) * 2j, torch.randn(2, dtype=torch.cfloat).dtype)
print(z.prod(), w.prod(1), z.reshape(3, 1).expand(3, 2).sum(1), z.flip(0), z[1:], torch.cat([z, z])[::2], z.unsqueeze(0).mean(1))
print(torch.where(z.real > 0, z, torch.zeros_like(z)), z == z.conj(), z.isclose(z).all(), torch.isfinite(z))
