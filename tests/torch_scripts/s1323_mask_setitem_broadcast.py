# setitem with masks and index tensors and broadcast values; grads through setitem of non-leaf
import torch

x = torch.zeros(3, 4)
x[torch.tensor([True, False, True])] = torch.tensor([1.0, 2.0, 3.0, 4.0])
print(x)
x[:, torch.tensor([0, 3])] = torch.tensor([[9.0], [8.0], [7.0]])
print(x)
x[x > 5] -= 10
print(x)
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.zeros(2, 3)
y[0] = w * 2
y[1, [0, 2]] = w[:2] ** 2
(y * torch.tensor([[1.0, 1.0, 1.0], [10.0, 10.0, 10.0]])).sum().backward()
print(y, w.grad)
print(x[None, ..., 1].shape, x[..., None].shape, x[1, None].shape)
