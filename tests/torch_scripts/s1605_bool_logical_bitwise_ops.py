# logical and bitwise ops on bools and ints; shifts, xor, any/all with dims, comparisons
import torch

a = torch.tensor([True, False, True, False])
b = torch.tensor([True, True, False, False])
print(a & b, a | b, a ^ b, ~a, torch.logical_xor(a, b), torch.logical_not(a.int()))
i = torch.tensor([5, -3, 12], dtype=torch.int32)
print(i & 6, i | 1, i ^ 7, ~i, i << 2, i >> 1, torch.bitwise_left_shift(i, 1).dtype)
print(torch.logical_and(torch.tensor([1.0, 0.0]), torch.tensor([2.0, 3.0])), torch.logical_or(i, torch.tensor(0)))
m = torch.tensor([[True, False], [True, True]])
print(m.all(), m.all(0), m.any(1), m.sum(), m.float().mean(), m.int().sum(1))
x = torch.tensor([1.0, float("nan"), 3.0])
print(x == x, x != x, x.eq(1.0), torch.isclose(x, torch.tensor([1.0, float("nan"), 3.0 + 1e-9]), equal_nan=True))
print(torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2])), torch.allclose(torch.ones(2), torch.ones(2) + 1e-9))
print(torch.tensor([3]) > torch.tensor([2.5]), torch.tensor([1, 2]).lt(2), torch.gt(torch.tensor(1), 0))
try:
    torch.tensor([1.5]) & torch.tensor([1.0])
except RuntimeError as e:
    print(e)
try:
    ~torch.tensor([1.5])
except TypeError as e:
    print(e)
