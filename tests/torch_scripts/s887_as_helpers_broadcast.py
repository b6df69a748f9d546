# The *_as helpers and broadcasting utilities: type_as, view_as, expand_as, reshape_as,
# broadcast_tensors, broadcast_to, broadcast_shapes, and broadcasting errors
import torch

a = torch.arange(6).view(2, 3)
f = torch.ones(3, 2, dtype=torch.float32)
print(a.type_as(f).dtype, f.view_as(a).shape, torch.tensor([1, 2, 3]).expand_as(a), a.reshape_as(f))
x, y = torch.broadcast_tensors(torch.tensor([[1], [2]]), torch.tensor([10, 20, 30]))
print(x, y, x.shape)
print(torch.broadcast_to(torch.tensor([1.0, 2.0]), (3, 2)), torch.broadcast_shapes((2, 1), (1, 3), (3,)))
try:
    torch.broadcast_shapes((2, 3), (4,))
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
try:
    torch.broadcast_to(torch.ones(3), (2, 4))
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
try:
    torch.ones(2, 3) * torch.ones(3, 2)
except RuntimeError as e:
    print("RuntimeError", str(e)[:87])
print((torch.ones(2, 1, 3) + torch.ones(4, 1)).shape, (torch.ones(()) * torch.ones(2, 0)).shape)
g = torch.tensor([1.0, 2.0], requires_grad=True)
torch.broadcast_to(g, (3, 2)).sum().backward()
print(g.grad)
