import torch

i = torch.tensor([1, 2, 3])
f32 = torch.tensor([1.0, 2.0], dtype=torch.float32)
b = torch.tensor([True, False, True])
print((i + 1.5).dtype, (i * True).dtype, (b + b).dtype, (b * 2.5).dtype, (b + 1).dtype)
print((f32 + torch.tensor(2.0, dtype=torch.float64)).dtype, (f32 + torch.tensor([2.0, 1.0], dtype=torch.float64)).dtype)
print((i / 2).dtype, (i // 2).dtype, (i ** 2).dtype, (i ** 0.5).dtype, (i ** -1.0).dtype)
print(torch.where(b, 1, 0).dtype, torch.where(b, 1.0, 0).dtype, torch.where(b, i, 0.5).dtype)
print(torch.where(b, f32[0], 2.0).dtype, torch.where(b, torch.tensor(1, dtype=torch.int8), 100))
try:
    torch.where(b, torch.tensor(1, dtype=torch.int8), 300)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.result_type(i, 2.0), torch.result_type(f32, 1), torch.result_type(b, i), torch.promote_types(torch.int32, torch.float16))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.bool, torch.uint8))
u8 = torch.tensor([250, 10], dtype=torch.uint8)
print(u8 + 10, (u8 - 20), u8.to(torch.int8), (u8 * 1.0).dtype)
print(torch.tensor(3) * f32, (torch.tensor(3.5) + i).dtype, (torch.tensor([3.5]) + i).dtype)
c = torch.tensor([1 + 2j])
print((c * 2).dtype, (c + f32[:1]).dtype, (c.to(torch.complex64) + torch.tensor([1.0])).dtype)
x = torch.tensor([0.5, -1.5, 2.5], requires_grad=True)
y = torch.where(x > 0, x ** 2, 0.0)
y.sum().backward()
print(y, x.grad + 0.0)
print(torch.tensor([1, 2]).float().dtype, torch.tensor([1.0]).long().dtype, torch.tensor([1.7, -1.7]).int())
print(i.sum().dtype, b.sum().dtype, b.float().mean(), i.prod().dtype, f32.sum(dtype=torch.float64).dtype)
try:
    i.mean()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
try:
    i += 1.5
except RuntimeError as e:
    print("RuntimeError:", e)
