import torch

i64 = torch.tensor([1, 2, 3])
i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
i8 = torch.tensor([100, -100], dtype=torch.int8)
u8 = torch.tensor([250, 5], dtype=torch.uint8)
b = torch.tensor([True, False, True])
f32 = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float32)
f64 = torch.tensor([0.5, 1.5, 2.5])
print((i64 + 1.5).dtype, (i32 * 2).dtype, (i32 * 2.5).dtype, (b + 1).dtype, (b + True).dtype, (b * 1.0).dtype)
print((f32 + torch.tensor(1.0)).dtype, (f32 + torch.tensor([1.0])).dtype, (i32 + torch.tensor(1.0)).dtype)
print((i8 + torch.tensor(1, dtype=torch.int16)).dtype, (i8 + torch.tensor([1], dtype=torch.int16)).dtype)
print(i8 + i8, u8 + u8, u8 - 10, (u8 * 2).dtype, i8 * 2)
print(torch.tensor(3) / 2, i64 / i64, (i64 // 2).dtype, i64 ** 2, (i64 ** 0.5).dtype, (2 ** i64).dtype)
print((i64 ** -1.0), (f32 ** 2).dtype, (b & torch.tensor([True, True, False])), (i32 + 1j).dtype)
print((f32 + 1j).dtype, (f64 * (1 + 1j)).dtype, (i64 + torch.tensor(1 + 0j, dtype=torch.complex64)).dtype)
print(torch.result_type(i32, 1.0), torch.result_type(u8, i8), torch.result_type(b, 2), torch.result_type(torch.tensor(1.0, dtype=torch.float32), i64))
print(torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.float16, torch.int64), torch.promote_types(torch.bool, torch.float32))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.int8, torch.uint8))
print(torch.where(b, i32, 2.5).dtype, torch.where(b, f32, 2).dtype, torch.where(b, 1, 0).dtype, torch.where(b, 1.0, 0).dtype)
print(torch.clamp(i64, 0.5, 2.5), torch.clamp(f32, min=torch.tensor(1.0)).dtype)
print(torch.maximum(i32, f32).dtype, torch.max(i8, torch.tensor([0], dtype=torch.uint8)).dtype)
print(torch.cat([i32, f32]).dtype, torch.cat([b, i8]).dtype, torch.stack([u8, u8]).dtype)
print(torch.tensor([1, 2.0]).dtype, torch.tensor([True, 2]).dtype, torch.tensor([1, 2 + 0j]).dtype)
print(i64.sum().dtype, i32.sum().dtype, b.sum().dtype, u8.sum(), i8.sum(), i32.prod().dtype, i32.cumsum(0).dtype)
print(i64.mean(dtype=torch.float64), f32.mean().dtype, b.float().mean(), i32.float().std().dtype)
x = torch.ones(3, dtype=torch.int32)
x += 2
x *= 3
print(x, x.dtype)
try:
    x += 0.5
except RuntimeError as e:
    print("RuntimeError", e)
try:
    x /= 2
except RuntimeError as e:
    print("RuntimeError", e)
y = torch.zeros(2, dtype=torch.float32)
y += torch.tensor([1.0, 2.0], dtype=torch.float64)
print(y, y.dtype)
