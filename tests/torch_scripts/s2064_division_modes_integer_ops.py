import torch

a = torch.tensor([7, -7, 7, -7])
b = torch.tensor([2, 2, -2, -2])
print(a / b, a // b, torch.div(a, b, rounding_mode="trunc"), torch.div(a, b, rounding_mode="floor"))
print(a % b, torch.fmod(a, b), torch.remainder(a, b))
af = a.double()
print(torch.fmod(af, 2.5), torch.remainder(af, 2.5), af // 2.5)
print(a << 2, a >> 1, a & 3, a | 8, a ^ 5, ~a)
print(torch.bitwise_left_shift(torch.tensor([1, 2], dtype=torch.uint8), 7))
print(torch.gcd(torch.tensor([12, 18, -4]), torch.tensor([8, 12, 6])), torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 10])))
print(a.abs(), a.sign(), a.neg(), a.pow(2), torch.pow(2, torch.tensor([1, 3, 10])))
print(torch.tensor([5], dtype=torch.int32) // 2, (torch.tensor([5], dtype=torch.int32) / 2).dtype)
c = torch.tensor([10, 20, 30])
c //= 4
print(c)
c += 1
c *= 3
print(c, c.dtype)
try:
    c /= 2
except RuntimeError as e:
    print("RuntimeError", "can't be cast" in str(e))
d = torch.tensor([1, 2, 3])
d.add_(2.7 if False else 2)
print(d, d.clamp(min=3), d.clamp(2, 4.5), d.float().clamp(2, 4.5))
print(torch.tensor([-3, 3]) // torch.tensor([0, 0]).float())
print(torch.floor_divide(torch.tensor([-5.5, 5.5]), 2), torch.true_divide(torch.tensor([3]), 2))
print(torch.tensor([1, 2, 3]).sum(dtype=torch.float32), torch.tensor([True, True]).sum().dtype)
print(torch.tensor([250], dtype=torch.uint8) + torch.tensor([10], dtype=torch.uint8))
print(torch.tensor([2 ** 31 - 1], dtype=torch.int32) + 1)
