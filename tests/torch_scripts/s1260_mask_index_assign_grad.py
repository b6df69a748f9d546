# boolean mask indexing read and write, index lists, and their gradients
import torch

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
pos = x[x > 0]
print(pos, pos.grad_fn.name())
y = x.clone()
y[y < 0] = 0.0
print(y)
z = x[[0, 1, 1], [2, 0, 2]]
print(z)
(pos.sum() + y.pow(2).sum() + (z * torch.tensor([1.0, 2.0, 3.0])).sum()).backward()
print(x.grad)
print(x[:, [True, False, True]].shape, x[torch.tensor([1, 0])][:, 1:])
