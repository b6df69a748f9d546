# gradients reduce over broadcast dimensions: expand, broadcast_to, implicit broadcasting
import torch

b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
col = torch.tensor([[1.0], [2.0]], requires_grad=True)
y = (b * col + s) * torch.tensor([[1.0, 0.0, 1.0], [2.0, 2.0, 0.0]])
y.sum().backward()
print(b.grad, s.grad, col.grad)
b.grad = None
b.expand(4, 3).pow(2).sum().backward()
print(b.grad)
b.grad = None
torch.broadcast_to(b, (2, 2, 3)).sum().backward()
print(b.grad)
print(torch.broadcast_shapes((3, 1), (1, 4), (4,)), torch.broadcast_tensors(b, col)[1].shape)
