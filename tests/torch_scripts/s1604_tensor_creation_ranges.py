# creation functions: arange float steps, linspace/logspace, full dtypes, eye/tril_indices, *_like
import torch

print(torch.arange(0, 1, 0.25), torch.arange(5, 0, -2), torch.arange(3).dtype, torch.arange(1.0, 2.0, 0.5).dtype)
print(torch.arange(0, 0.3, 0.1).shape, torch.arange(-1.5, 1.0).tolist())
print(torch.linspace(0, 1, 5), torch.linspace(3, 3, 1), torch.logspace(0, 2, 3), torch.logspace(0, 3, 4, base=2))
print(torch.full((2,), 7).dtype, torch.full((2,), 7.0).dtype, torch.full((1,), True).dtype)
print(torch.eye(2, 3), torch.tril_indices(3, 3), torch.triu_indices(3, 3, 1))
x = torch.tensor([[1.5, 2.5]], requires_grad=True)
print(torch.zeros_like(x).requires_grad, torch.ones_like(x, dtype=torch.int32), torch.full_like(x, 3))
print(torch.empty(2, 3).shape, torch.empty_like(x).dtype, torch.zeros(2, 0).numel())
print(torch.tensor([]).dtype, torch.tensor([[]]).shape, torch.as_tensor([1, 2]).dtype)
print(torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)), torch.complex(torch.ones(1), torch.zeros(1)))
print(torch.diag(torch.tensor([1.0, 2.0]), 1), torch.diagflat(torch.tensor([[1, 2]])), torch.vander(torch.tensor([1, 2, 3]), N=3))
try:
    torch.arange(0, 5, 0)
except RuntimeError as e:
    print(e)
try:
    torch.linspace(0, 1, -1)
except RuntimeError as e:
    print(e)
