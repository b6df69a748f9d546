# Triangular helpers: triu/tril with negative and positive diagonals on non-square matrices,
# triu_indices/tril_indices with offsets, a causal mask built three ways
import torch

a = torch.arange(1.0, 13.0).view(3, 4)
print(torch.triu(a, -1), torch.tril(a, 1), torch.triu(a, 2), torch.tril(a, -2))
print(torch.triu_indices(3, 4, 1), torch.tril_indices(4, 3, -1), torch.triu_indices(3, 3).shape)
T = 4
m1 = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
m2 = torch.arange(T)[None, :] > torch.arange(T)[:, None]
m3 = torch.ones(T, T).tril() == 0
print(m1, torch.equal(m1, m2), torch.equal(m1, m3))
print(torch.zeros(T, T).masked_fill(m1, float("-inf")))
b = torch.arange(8.0).view(2, 2, 2)
print(b.triu(), b.tril(-1))
x = torch.ones(3, 3, requires_grad=True)
x.triu(1).sum().backward()
print(x.grad)
i, j = torch.triu_indices(3, 3, 1)
print(a[:3, :3][i, j])
print(torch.ones(2, 3).triu_(1), torch.ones(3, 2).tril_())
