# integer arithmetic: shifts, remainder vs fmod, floor_divide, overflow wrap, pow errors
import torch

a = torch.tensor([-7, -1, 0, 5, 7])
print(a % 3, torch.remainder(a, -3), torch.fmod(a, 3), torch.fmod(a, -3))
print(a // 2, torch.floor_divide(a, -2), a.div(2, rounding_mode="trunc"))
print(a << 2, a >> 1, torch.tensor([1, 2], dtype=torch.uint8) << 7)
print(torch.bitwise_and(a, 3), a & 6, a | 1, a ^ 2, ~a)
print(torch.bitwise_left_shift(torch.tensor([1]), torch.tensor([3])))
i8 = torch.tensor([127, -128], dtype=torch.int8)
print(i8 + 1, i8 * 2, -i8, i8.abs())
u8 = torch.tensor([0, 255], dtype=torch.uint8)
print(u8 + 1, u8 - 1, u8 * 2)
print(torch.tensor([2, 3]) ** 2, torch.tensor([2, 3]) ** torch.tensor([0, 3]))
try:
    torch.tensor([2, 3]) ** -1
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([2, 3]) ** -1.0, torch.tensor([4]) ** 0.5)
print(torch.tensor(2) ** torch.tensor([1.5]), 2 ** torch.tensor([3, 4]))
try:
    torch.tensor([1, 2]) // 0
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1, 2]) % 0
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.tensor([1.0, -1.0, 0.0]) // 0, torch.tensor([1, 2]) / 0)
print(torch.gcd(torch.tensor([12, -18, 0]), torch.tensor([8, 12, 0])), torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 0])))
print(torch.tensor([10**18]) * 10, torch.tensor([2**62]) + 2**62)
print(torch.tensor([5]).clamp(min=7), torch.tensor([5]).clamp(max=2.5))
print(torch.sign(a), torch.sgn(a), a.abs(), torch.tensor([-3]).neg())
print(torch.tensor([3, 4]).sqrt(), torch.tensor([1, 2]).exp().dtype, torch.tensor([True]).sin())
print(torch.trunc(torch.tensor([-1.5, 1.5])), torch.tensor([7]).true_divide(2))
