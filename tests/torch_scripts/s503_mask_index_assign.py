import torch

x = torch.arange(20, dtype=torch.float64).view(4, 5)
mask = x % 3 == 0
print(mask.sum().item(), x[mask])
y = x.clone()
y[mask] = -1.0
print(y)
y[mask] = torch.arange(mask.sum().item(), dtype=torch.float64) * 10
print(y[0], y[3])
rows = torch.tensor([0, 2, 3])
cols = torch.tensor([1, 1, 4])
z = torch.zeros(4, 5)
z[rows, cols] += 1.0  # duplicates are not accumulated by +=
print(z.sum().item())
z.index_put_((rows, cols), torch.ones(3), accumulate=True)
print(z)
print(x[rows[:, None], torch.tensor([[0, 4]])])
print(x[[0, 2]][:, [1, 3]], x[1:, [0, -1]])
x2 = x.clone()
x2[x2 > 15] = x2[x2 > 15] * 0.5
print(x2[-1])
x2[:, mask.any(0)] = 0.0
print(x2[:2])
# gradient through masked assignment into a non-leaf
w = torch.linspace(-1, 1, 6, requires_grad=True)
v = w * 2
v[v < 0] = 0.0
v.sum().backward()
print(w.grad)
w.grad = None
v = w.clone()
v[[1, 4]] = w[[0, 5]] ** 2
v.sum().backward()
print(w.grad)
print(torch.where(mask, x, torch.zeros(())).sum().item(), torch.masked_select(x, ~mask).shape)
print(x[mask.nonzero(as_tuple=True)].equal(x[mask]), mask.nonzero()[:3])
