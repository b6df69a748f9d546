# Applying a function along a dim without loops: softmax per row, per-column min-max scaling,
# standardising with keepdim broadcasting, row-wise dot products, per-group argmax
import torch

m = torch.tensor([[1.0, 4.0, 2.0], [3.0, 0.0, 6.0], [5.0, 2.0, 1.0]])
print(m.softmax(1).sum(1), (m - m.min(0).values) / (m.max(0).values - m.min(0).values))
z = (m - m.mean(1, keepdim=True)) / m.std(1, keepdim=True)
print(z, z.mean(1).abs().max() < 1e-12)
print((m * m.flip(0)).sum(1), torch.einsum("ij,ij->i", m, m), torch.linalg.vecdot(m, m))
print(m.argmax(1), m.argmax(), m.argmax(0, keepdim=True), torch.argmin(m, dim=1))
print(torch.stack([r.sort().values for r in m]), m.sort(1).values)
print(m / m.sum(1, keepdim=True), m.div(m.norm(dim=0)), torch.nn.functional.normalize(m, p=1, dim=1))
print(m.max(dim=1, keepdim=True), m.cumsum(1)[:, -1], m.amax((0, 1)), m.prod(dim=0))
print(torch.vmap(lambda r: r.max() - r.min())(m), torch.func.vmap(torch.trace)(m.view(1, 3, 3)))
