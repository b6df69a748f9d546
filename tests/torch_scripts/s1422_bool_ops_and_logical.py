# bool tensors: logical ops, bitwise on bools, sums, where with bool, comparisons
import torch

a = torch.tensor([True, False, True, False])
b = torch.tensor([True, True, False, False])
print(a & b, a | b, a ^ b, ~a, torch.logical_xor(a, b), torch.logical_not(b))
print(a.int() - b.int(), (a * 1.5), a.sum(), (a == b).all(), torch.equal(a, b))
try:
    print(a - b)
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
try:
    print(-a)
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
print(torch.where(a, 1, 0), torch.where(a, 1.0, 0).dtype, torch.where(a)[0])
print(a.nonzero(), a.nonzero(as_tuple=True), a.count_nonzero(), a.int().argmax())
