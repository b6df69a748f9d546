# Integer and bool tensor operations: bitwise ops/shifts, logical ops, any/all dims, sum dtype, mean error, cumsum dtype
import torch

a = torch.tensor([5, -3, 12], dtype=torch.int32)
b = torch.tensor([3, 1, 10], dtype=torch.int32)
print(a & b, a | b, a ^ b, ~a, a << 2, a >> 1, torch.bitwise_left_shift(a, b))
t = torch.tensor([True, False, True])
print(t & torch.tensor([True, True, False]), ~t, t ^ True, torch.logical_xor(t, torch.tensor([0, 1, 2])))
print(t.sum(), t.sum().dtype, a.sum().dtype, torch.tensor([1, 2], dtype=torch.uint8).sum().dtype, a.prod().dtype)
print(t.any(), t.all(), torch.tensor([[True, False], [True, True]]).all(dim=1), torch.tensor([1, 0, 3]).all())
print(a.cumsum(0).dtype, t.cumsum(0), a.float().mean(), torch.tensor([1, 2, 4]).double().mean())
try:
    a.mean()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:107])
print(a.abs(), a.sign(), a.clamp(min=0), a.max(), a.argmin(), torch.tensor([7, 2]).sort())
print(torch.tensor([2, 3]) ** 2, torch.tensor([2, 3]) ** torch.tensor([3, 2]), torch.tensor([4]) ** 0.5, 2 ** torch.tensor([1, 2]))
try:
    torch.tensor([2, 3]) ** -1
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor([10, 20]).div(torch.tensor([3, 7]), rounding_mode="floor"), torch.tensor([True, False]).int(), torch.tensor([0, 3]).bool())
