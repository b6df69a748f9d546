# creation functions: full/arange/linspace/logspace/eye/empty_like dtypes and requires_grad
import torch

print(torch.full((2,), 3), torch.full((2,), 3.0).dtype, torch.full((1,), True))
print(torch.arange(5), torch.arange(0, 1, 0.25), torch.arange(1, 4, dtype=torch.float32))
print(torch.linspace(0, 1, 5), torch.logspace(0, 2, 3), torch.logspace(0, 3, 4, base=2))
print(torch.eye(2, 3), torch.zeros_like(torch.ones(2, dtype=torch.int32)).dtype)
x = torch.ones(2, requires_grad=True)
print(torch.ones_like(x).requires_grad, torch.zeros_like(x, requires_grad=True).requires_grad)
print(torch.empty(2, 3).shape, torch.full_like(x, 7), torch.rand_like(x).shape)
print(torch.tensor(5).shape, torch.tensor([5]).shape, torch.as_tensor([1, 2]).dtype, torch.scalar_tensor(2))
print(torch.arange(3).expand(2, 3), torch.tril(torch.ones(3, 3)), torch.triu(torch.ones(2, 3), 1))
