# meshgrid with indexing='xy' vs 'ij', evaluating a function on a grid, stacking into points,
# cartesian_prod equivalence, and a 2-d grid for plotting a loss surface
import torch

x = torch.linspace(-1, 1, 3)
y = torch.linspace(0, 2, 2)
X, Y = torch.meshgrid(x, y, indexing="xy")
I, J = torch.meshgrid(x, y, indexing="ij")
print(X, Y, X.shape, I.shape, torch.equal(X, I.T))
pts = torch.stack([I.flatten(), J.flatten()], 1)
print(pts, torch.equal(pts, torch.cartesian_prod(x, y)))
Z = torch.exp(-(X ** 2 + Y ** 2))
print(Z, Z.argmax(), torch.unravel_index(Z.argmax(), Z.shape))
w0, w1 = torch.meshgrid(torch.linspace(-2, 2, 5), torch.linspace(-2, 2, 5), indexing="ij")
data_x = torch.tensor([0.0, 1.0, 2.0])
data_y = torch.tensor([1.0, 3.0, 5.0])
surface = ((w0[..., None] + w1[..., None] * data_x - data_y) ** 2).mean(-1)
idx = torch.unravel_index(surface.argmin(), surface.shape)
print(surface.shape, idx, w0[idx], w1[idx], surface.min())
print(torch.meshgrid(torch.arange(2), indexing="ij"), [t.shape for t in torch.meshgrid(torch.arange(2), torch.arange(3), torch.arange(4), indexing="xy")])
