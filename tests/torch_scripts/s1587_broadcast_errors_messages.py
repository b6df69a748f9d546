# broadcasting: shapes that work, broadcast_to/expand, and the errors of shapes that do not
import torch

a = torch.ones(3, 1)
b = torch.ones(1, 4)
print((a + b).shape, torch.broadcast_shapes((2, 1, 3), (4, 1)), torch.broadcast_tensors(a, b)[1].shape)
print(torch.ones(2, 3).expand(4, 2, 3).shape, torch.ones(3).broadcast_to(2, 3).stride())
for f in [lambda: torch.ones(2, 3) + torch.ones(3, 2),
          lambda: torch.ones(2, 3).expand(3, 3),
          lambda: torch.broadcast_shapes((2,), (3,)),
          lambda: torch.ones(2, 3).add_(torch.ones(4, 2, 3)),
          lambda: torch.ones(3) @ torch.ones(4),
          lambda: torch.ones(2, 3).mm(torch.ones(2, 3)),
          lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]),
          lambda: torch.stack([torch.ones(2), torch.ones(3)]),
          lambda: torch.ones(2, 3).view(4),
          lambda: torch.ones(6).reshape(4, -1)]:
    try:
        f()
    except RuntimeError as e:
        print(str(e)[:88])
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.expand(3, 2)
y.sum().backward()
print(x.grad, y.grad_fn.name())
