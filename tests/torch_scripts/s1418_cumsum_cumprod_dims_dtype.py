# cumsum/cumprod over dims with dtype=, logcumsumexp, and their gradients in 2-D
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]], requires_grad=True)
print(x.cumsum(1), x.cumsum(0), x.cumprod(1))
print(torch.cumsum(torch.tensor([1, 2, 3], dtype=torch.int32), 0, dtype=torch.float32))
print(torch.tensor([True, True, False]).cumsum(0))
(x.cumsum(1) * x.cumprod(1)).sum().backward()
print(x.grad)
x.grad = None
x.logcumsumexp(1)[:, -1].sum().backward()
print(x.grad)
x.grad = None
torch.cummin(x, 1).values.sum().backward()
print(x.grad)
