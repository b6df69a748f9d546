# creation corner cases: inferred dtypes, arange lengths, full, like-ops, from numpy
import numpy as np
import torch

print(torch.tensor([1, 2.5]).dtype, torch.tensor([True, 1]).dtype, torch.tensor([[1], [2]]).dtype)
print(torch.tensor([]).dtype, torch.tensor([[]]).shape, torch.tensor(3).shape, torch.tensor([1j]).dtype)
print(torch.full((2,), 7).dtype, torch.full((2,), 7.0).dtype, torch.full((1,), True).dtype)
print(torch.arange(0, 1, 0.1).shape, torch.arange(1, 2.5, 0.5), torch.arange(5, 0, -2))
print(torch.arange(3, dtype=torch.float32), torch.arange(0.0, 3).dtype, torch.arange(10)[::4])
print(torch.linspace(0, 10, 5, dtype=torch.int64), torch.logspace(0, 2, 3, base=2.0))
print(torch.eye(2, 3), torch.zeros((2, 1)).shape, torch.ones([3]).shape, torch.empty(2, 2).shape)
print(torch.zeros_like(torch.tensor([1, 2])).dtype, torch.full_like(torch.tensor([1, 2]), 3.7))
print(torch.ones_like(torch.tensor([1.0]), dtype=torch.int32), torch.rand_like(torch.zeros(2)).shape)
print(torch.empty_like(torch.zeros(2, 3, dtype=torch.int8)).dtype)
a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100.0
print(t[0, 0], t.dtype)
print(torch.as_tensor([1, 2], dtype=torch.float64), torch.as_tensor(np.array(5)).shape)
print(torch.tensor(np.array([1, 2], dtype=np.uint8)).dtype, torch.tensor(np.float32(1.5)).dtype)
print(torch.tensor(np.array([True])).dtype, torch.tensor([np.int64(3)]).dtype)
try:
    torch.from_numpy(np.arange(4)[::-1])
except ValueError as e:
    print("ValueError", str(e)[:60])
try:
    torch.tensor([[1, 2], [3]])
except ValueError as e:
    print("ValueError", e)
try:
    torch.tensor("abc")
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
try:
    torch.arange(0, 10, 0)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.zeros(-1)
except RuntimeError as e:
    print("RuntimeError", str(e)[:40])  # (tapegrad names the size after)
print(torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
print(torch.stack([torch.tensor(1), torch.tensor(2)]), torch.tensor((1, 2)).tolist())
print(torch.tril_indices(3, 3, -1), torch.triu_indices(2, 3, 1))
print(torch.complex(torch.tensor(1.0), torch.tensor(2.0)), torch.heaviside(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor(0.5)))
print(torch.empty(3).fill_(2).tolist(), torch.zeros(2).new_ones(3), torch.zeros(2).new_tensor([1, 2]).dtype)
print(torch.zeros(2, dtype=torch.int64).new_full((2,), 1.5), torch.zeros(1).new_empty(2).shape)
