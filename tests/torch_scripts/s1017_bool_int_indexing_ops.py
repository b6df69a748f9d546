# integer/bool tensor ops: bitwise, shifts, comparisons chaining, argmax on ints, sum of bools dtype, int division by zero float
import torch

a = torch.tensor([5, 3, 12, -4])
b = torch.tensor([3, 3, 10, 2])
print(a & b, a | b, a ^ b, ~a, a << 1, a >> 1)
print(torch.bitwise_and(a, 6), torch.bitwise_left_shift(a, torch.tensor([0, 1, 2, 3])))
print((a > b).sum(), (a > b).sum().dtype, (a == 3).nonzero().flatten())
print(a.argmax(), a.argmin(), a.max(), a.min(dim=0))
print(a / 0, torch.tensor([0]) / 0, a.float() // 0)
print(torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"), torch.div(a, b))
print(torch.remainder(a, -3), torch.fmod(a, -3), a.abs(), a.sign(), a.neg())
print(torch.gcd(a, b), torch.lcm(a, b))
print(a.clamp(0, 10), a.double().mean(), a.sum(dtype=torch.float32))
try:
    a.mean()
except RuntimeError as e:
    print(str(e).split(" (")[0])
print(a.float().std(), torch.tensor([True, True, False]).float().mean())
print(a.to(torch.uint8), torch.tensor([300.7, -1.2]).to(torch.int32), torch.tensor([2.9, -2.9]).long())
print(torch.tensor([1, 2]).pow(torch.tensor([3, 2])), torch.tensor(2) ** torch.tensor(10))
print(a.tolist(), a.numpy().dtype, torch.iinfo(torch.int16).max, torch.iinfo(torch.uint8).min)
