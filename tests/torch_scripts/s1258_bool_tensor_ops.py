# bool tensors: logical ops, sum/any/all, bitwise ops on ints, mask arithmetic
import torch

m = torch.tensor([[True, False, True], [False, False, True]])
print(m.sum(), m.sum(0), m.sum().dtype, m.any(1), m.all(0), m.float().mean())
print(~m, m & m.flip(1), m | m.flip(0), m ^ m.flip(1))
print(torch.logical_and(m, torch.tensor([1, 0, 1])), torch.logical_not(torch.tensor([0.0, 2.0])))
n = torch.tensor([5, 3, -1])
print(n & 3, n | 8, n ^ 1, ~n, n << 2, n >> 1)
print(m.int().dtype, m.to(torch.float32), torch.count_nonzero(m, dim=1), m.nonzero())
print(torch.tensor([1.0, 0.0, -2.0]).bool(), (torch.arange(4) > 1).long())
