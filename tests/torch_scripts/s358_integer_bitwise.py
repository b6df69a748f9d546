import torch

a = torch.tensor([7, -7, 5, -5, 0, 13])
b = torch.tensor([2, 2, -3, -3, 4, 5])
print(a // b, torch.floor_divide(a, b), a % b, torch.remainder(a, b), torch.fmod(a, b))
print(torch.div(a, b, rounding_mode="trunc"), torch.div(a, b, rounding_mode="floor"), torch.div(a, b))
print(torch.gcd(a, b), torch.lcm(a, b))
print(a & b, a | b, a ^ b, ~a, torch.bitwise_not(torch.tensor([True, False])))
print(a << 2, a >> 1, torch.bitwise_left_shift(a, torch.tensor(1)), torch.bitwise_right_shift(a, 2))
print(torch.tensor([250], dtype=torch.uint8) + torch.tensor([10], dtype=torch.uint8), torch.tensor([-128], dtype=torch.int8) - 1)
print(a.abs(), a.sign(), a.clamp(-3, 6), a.pow(2), torch.tensor([2]) ** torch.tensor([10]))
print(a.float().fmod(-2.5), torch.remainder(torch.tensor([-3.5, 3.5]), 2), torch.fmod(torch.tensor([-3.5, 3.5]), 2))
print((a > 0).sum(), (a > 0).to(torch.int32).dtype, a.to(torch.bool), torch.logical_xor(a, b))
print(a.max(), a.min(), a.sum(), a.prod(), a.float().mean(), a.median(), a.mode())
print(torch.tensor([3, 9, 12]).bitwise_and(torch.tensor(10)), torch.tensor(5) % 3, -torch.tensor(5) // 3, 7 // torch.tensor([2, -2]))
try:
    torch.tensor([1.5]) & torch.tensor([1])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    a // torch.tensor(0)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tensor([1, 2]) / torch.tensor([0, 0]), torch.tensor([1.0, -1.0, 0.0]) // 0)
print(torch.iinfo(torch.int32).max, torch.iinfo(torch.uint8), torch.finfo(torch.float16).eps)
print(torch.tensor([2 ** 62]) * 4, torch.tensor([1, 2, 3]).true_divide(2), torch.tensor([10]).float_power(2))
