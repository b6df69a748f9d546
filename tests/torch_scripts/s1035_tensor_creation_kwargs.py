# creation functions with less common kwargs: arange negative steps, linspace/logspace base, full dtype inference, eye m, *_like with dtype
import torch

print(torch.arange(5, 0, -1.5), torch.arange(0, 1, 0.25).dtype, torch.arange(3, dtype=torch.float32))
print(torch.linspace(0, 1, steps=1), torch.linspace(-1, 1, 4, dtype=torch.float32))
print(torch.logspace(0, 2, 3, base=2), torch.logspace(-1, 1, 3))
print(torch.full((2, 2), 7).dtype, torch.full((2,), 1.5).dtype, torch.full((1,), True).dtype)
print(torch.eye(2, 3), torch.eye(3, dtype=torch.int64)[0])
print(torch.zeros_like(torch.ones(2, dtype=torch.int32), dtype=torch.float64), torch.ones_like(torch.zeros(2), requires_grad=True))
print(torch.full_like(torch.zeros(2, 2), 3.5), torch.empty(0).shape, torch.empty(2, 0, 3).numel())
print(torch.tensor([]).dtype, torch.tensor([[]]).shape, torch.tensor(()).shape)
print(torch.range(0, 2, 0.5) if hasattr(torch, "range") else None)
print(torch.tril(torch.ones(3, 3), diagonal=-1), torch.triu(torch.ones(2, 3), 1))
print(torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)), torch.signbit(torch.tensor([-0.0, 1.0])))
print(torch.zeros(2, 3).new_full((2,), 4.0), torch.ones(1).new_tensor([1, 2]).dtype, torch.ones(1, dtype=torch.float32).new_zeros(2).dtype)
print(torch.complex(torch.tensor(1.0), torch.tensor(2.0)), torch.scalar_tensor(3))
print(torch.as_tensor(3.5).dim(), torch.Size([2, 3]).numel(), torch.Size([2, 3]) + (4,), torch.ones(2, 3).size(-1))
