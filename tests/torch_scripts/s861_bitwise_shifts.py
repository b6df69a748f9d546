# Bit tricks with integer tensors: shifts, and/or/xor/not, popcount by loop, packing bools into
# a byte, checking powers of two, gcd/lcm
import torch

a = torch.tensor([0b1010, 0b0110, 255, 1], dtype=torch.int64)
print(a & 0b0011, a | 0b1000, a ^ a.flip(0), ~a, a << 2, a >> 1)
print(torch.bitwise_left_shift(a, torch.tensor([1, 2, 3, 4])), torch.bitwise_right_shift(a, 1))
bits = (a.unsqueeze(-1) >> torch.arange(8)) & 1
print(bits, bits.sum(-1))
flags = torch.tensor([1, 0, 1, 1, 0, 0, 0, 1], dtype=torch.uint8)
packed = (flags << torch.arange(8, dtype=torch.uint8)).sum()
print(packed, packed.dtype)
n = torch.tensor([1, 2, 3, 4, 6, 8, 0])
print((n > 0) & ((n & (n - 1)) == 0))
print(torch.gcd(torch.tensor([12, 18, 7]), torch.tensor([8, 27, 0])), torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 8])))
b = torch.tensor([True, False, True])
print(b & torch.tensor([True, True, False]), b | False, b ^ True, ~b, torch.logical_xor(b, torch.tensor([1, 0, 0])))
u = torch.tensor([200, 100], dtype=torch.uint8)
print(u + u, u * 2, u >> 2, u.to(torch.int8), torch.bitwise_not(u))
print(torch.tensor([-8, 8]) >> 1, torch.tensor([-1], dtype=torch.int8) << 7)
