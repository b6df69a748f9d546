import torch

x = torch.arange(24.0).view(2, 3, 4)
print(x[..., 1], x[:, None, 0].shape, x[1, [0, 2]][:, ::2])
print(x[x > 20], x[:, [0, 1], [1, 2]])
m = torch.tensor([True, False, True])
print(x[:, m].shape, x[0][m, 1:])
idx = torch.tensor([[0, 2], [1, 1]])
print(x[0][idx].shape, x[0, idx, idx])
y = x.clone()
y[y % 5 == 0] = -1
y[:, 1] *= 10
y[0, :, [0, 3]] = torch.tensor([7.0, 8.0])
print(y)
z = torch.zeros(5)
z.index_add_(0, torch.tensor([0, 2, 2, 4]), torch.tensor([1.0, 2.0, 3.0, 4.0]))
print(z, z.index_select(0, torch.tensor([4, 0])))
z.index_fill_(0, torch.tensor([1, 3]), -2.0)
print(z, torch.take(x, torch.tensor([0, 23, 5])))
t = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
(t[[0, 0, 1], [1, 1, 0]] * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(t.grad)
print(x.masked_select(x.remainder(7) == 0), torch.nonzero(x[0] > 9), torch.argwhere(x[1] < 14))
print(x[0].index_put((torch.tensor([0, 2]), torch.tensor([1, 3])), torch.tensor(0.5)))
