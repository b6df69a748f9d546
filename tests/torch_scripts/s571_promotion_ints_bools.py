import torch

i = torch.tensor([1, 2, 3])
b = torch.tensor([True, False, True])
f = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float32)
print((i / 2).dtype, (i // 2).dtype, (i * 2.0).dtype, (i + True).dtype, (b + b).dtype, (b * 2).dtype)
print((i + f).dtype, (b + f).dtype, (i.to(torch.int8) + 300).dtype, (i.to(torch.uint8) + i.to(torch.int8)).dtype)
print(torch.tensor(2) * f, (torch.tensor(2.0) * i).dtype, (torch.tensor(2.0, dtype=torch.float64) * f).dtype)
print(torch.result_type(i, 1.0), torch.result_type(b, 1), torch.result_type(f, torch.tensor(1.0)))
print(torch.promote_types(torch.int32, torch.float16), torch.promote_types(torch.uint8, torch.int8))
print(torch.promote_types(torch.bool, torch.int16), torch.promote_types(torch.float16, torch.float32))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float64), torch.can_cast(torch.bool, torch.uint8))
print(i.sum().dtype, b.sum().dtype, i.mean(dtype=torch.float64), b.float().mean().dtype, i.prod().dtype)
print(i.true_divide(2), torch.div(i, 2, rounding_mode="floor"), torch.div(-i, 2, rounding_mode="trunc"))
print(i ** 2, (i ** 2).dtype, (i ** 0.5).dtype, (2 ** i).dtype, (2.0 ** i).dtype)
print(torch.tensor([1, 2]) == torch.tensor([1.0, 2.5]), (b & True).dtype, (~b), (b ^ True))
print(torch.tensor(3) / torch.tensor(2), torch.tensor(-7) // 2, torch.tensor(-7) % 3, torch.fmod(torch.tensor(-7), 3))
x = torch.zeros(3)
x += i
print(x, x.dtype)
try:
    i += 0.5
except RuntimeError as e:
    print("RuntimeError", e)
try:
    b - b
except RuntimeError as e:
    print("RuntimeError", str(e)[:90])
try:
    -b
except RuntimeError as e:
    print("RuntimeError", str(e)[:90])
print(torch.abs(torch.tensor([-3, 4])), torch.sqrt(torch.tensor([4, 9])).dtype, torch.exp(b).dtype)
print(torch.arange(5).float().dtype, torch.arange(0, 1, 0.25).dtype, torch.arange(5.0).dtype, torch.full((2,), 7).dtype)
