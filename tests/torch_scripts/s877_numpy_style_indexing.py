# NumPy-style advanced indexing in torch: index arrays broadcast together, mixing slices and
# index tensors (dims move to front), None and Ellipsis, negative steps refused, ix_-like grids
import torch

a = torch.arange(60).view(3, 4, 5)
print(a[[0, 2], [1, 3]], a[[0, 2], [1, 3]].shape)
print(a[:, [0, 2], [1, 4]].shape, a[[0, 1], :, [2, 3]].shape, a[[[0], [2]], [1, 3]].shape)
print(a[..., 0].shape, a[None, ..., None].shape, a[1, ..., 2], a[:, None, 1].shape)
rows = torch.tensor([0, 2])[:, None]
cols = torch.tensor([1, 3, 4])
print(a[0][rows, cols], a[0][rows, cols].shape)
print(a[torch.tensor([True, False, True])].shape, a[:, torch.tensor([True, False, True, False])].shape)
print(a[1, 1:3, ::2], a[-1, -1, -3:], a[2][torch.tensor([[0, 1], [2, 3]])].shape)
try:
    a[::-1]
except ValueError as e:
    print("ValueError", str(e)[:31])
b = torch.zeros(3, 3)
b[[0, 1, 2], [2, 1, 0]] = torch.tensor([1.0, 2.0, 3.0])
b[1:, 0] += 5
print(b)
c = torch.zeros(5)
c[torch.tensor([0, 0, 1])] += 1
print(c)
print(a[0, torch.tensor(1)], a[torch.tensor(0), 1, torch.tensor([0, 4])], a[0, 1, 2].item())
