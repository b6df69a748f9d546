# advanced indexing: int lists, bool masks mixed with slices, None, Ellipsis; gradient scatter
import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
print(x[[0, 1], [2, 0]].shape, x[:, [0, 2]].shape, x[..., [1, 3]].shape)
print(x[[[0], [1]], [1, 2]].shape)
m = torch.tensor([True, False, True])
print(x[:, m].shape, x[0, m, 1:3])
print(x[None, 1, ..., None].shape)
print(x[x > 20].detach())
y = x[:, [0, 0, 2], [1, 1, 3]]
print(y.grad_fn.name(), y.shape)
y.sum().backward()
print(x.grad[0])
x.grad = None
z = x[torch.tensor([1, 0])][:, 1:, ::2]
z.sum().backward()
print(x.grad.sum(), z.grad_fn.name())
print(x[0, torch.tensor(1)].shape, x[torch.tensor([[0, 1], [1, 0]])].shape)
t = torch.tensor([[1, 2], [3, 4]])
print(t[torch.tensor([True, False])], t[:, torch.tensor([False, True])], t[t % 2 == 0])
