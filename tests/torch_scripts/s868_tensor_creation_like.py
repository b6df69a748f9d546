# *_like constructors with dtype overrides, full_like with a float into an int tensor, empty_like
# shapes, zeros_like of a tensor that requires grad, new_* with sizes given as tuples or ints
import torch

x = torch.arange(6).view(2, 3)
f = torch.ones(2, 2, requires_grad=True)
print(torch.zeros_like(x), torch.ones_like(x, dtype=torch.float32), torch.full_like(x, 2.7), torch.full_like(x, 7, dtype=torch.float64))
print(torch.empty_like(x).shape, torch.zeros_like(f).requires_grad, torch.ones_like(f, requires_grad=True).requires_grad)
print(torch.rand_like(f).shape, torch.randn_like(f).dtype, torch.randint_like(x, 5).dtype, torch.randint_like(x, 3, 4))
print(x.new_zeros((2,)), x.new_ones(1, 2), f.new_full([2], -1.0), f.new_empty(3).shape, f.new_tensor([[1, 2]]).dtype)
print(torch.eye(2, 3), torch.eye(3, dtype=torch.int64), torch.empty(0, 2).shape, torch.full((2,), True))
print(torch.arange(5, 0, -2), torch.arange(1, 2, 0.25), torch.range(0, 2) if hasattr(torch, "range") else None)
print(torch.linspace(1, 2, 1), torch.logspace(0, 3, 4, base=2), torch.linspace(-1, 1, 5, dtype=torch.float32))
print(torch.tensor([]), torch.tensor([[]]).shape, torch.tensor([[], []]).shape, torch.as_tensor([1, 2], dtype=torch.float32))
print(torch.scalar_tensor(3), torch.tensor(3).shape, torch.zeros(()), torch.ones([]).item())
