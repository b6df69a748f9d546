import torch

t = torch.arange(10)
print(t.split(3), torch.split(t, [2, 3, 5]))
print(t.chunk(4), torch.chunk(t, 3))
print(torch.tensor_split(t, 3), torch.tensor_split(t, [2, 7]), t.tensor_split(torch.tensor([1, 4])))
m = torch.arange(24).reshape(4, 6)
print([p.shape for p in torch.hsplit(m, 3)], [p.shape for p in torch.vsplit(m, [1, 3])])
print([p.shape for p in torch.dsplit(m.reshape(2, 3, 4), 2)])
a, b = torch.tensor([1, 2]), torch.tensor([3, 4])
print(torch.stack([a, b]), torch.stack([a, b], dim=1), torch.stack((a, b), -1).shape)
print(torch.cat([a, b]), torch.cat((a.unsqueeze(0), b.unsqueeze(0)), dim=0))
print(torch.hstack([a, b]), torch.vstack([a, b]), torch.column_stack([a, b]), torch.row_stack([a, b]))
print(torch.dstack([a, b]).shape, torch.concat([a, b]), torch.concatenate([a, b], axis=0))
print(torch.cat([torch.zeros(2, 0), torch.ones(2, 2)], dim=1).shape, torch.cat([torch.tensor([]), a.double()]))
print(torch.cat([a, b.double()]).dtype, torch.stack([a.float(), b.float()]).dtype)
x = torch.arange(6.0, requires_grad=True)
parts = x.split(2)
(parts[0] * 1 + parts[2] * 3).sum().backward()
print(x.grad, parts[1].grad_fn.__class__.__name__)
print(torch.unbind(m[:2], dim=1)[0], m.unflatten(1, (2, 3)).shape, torch.atleast_2d(a).shape)
print(torch.block_diag(torch.ones(2, 2), torch.tensor([[5]])))
try:
    torch.stack([a, torch.tensor([1, 2, 3])])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.cat([m, a])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    t.split([3, 3])
except RuntimeError as e:
    print("RuntimeError", e)
