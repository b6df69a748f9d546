import torch

i32 = torch.tensor([1, 2], dtype=torch.int32)
u8 = torch.tensor([200, 100], dtype=torch.uint8)
f32 = torch.tensor([0.5, 1.5], dtype=torch.float32)
b = torch.tensor([True, False])
pairs = [i32 + u8, u8 + u8, u8 + 1, i32 * 2.5, f32 + torch.tensor(1.0), f32 + torch.tensor([1.0]),
         i32 + torch.tensor(1.5), b + b, b + 1, b * 1.0, i32 / 2, i32 // 2, u8 - 201, i32 ** 2, i32 ** -1.0,
         f32.double() + f32, torch.tensor(1, dtype=torch.int16) + torch.tensor([1], dtype=torch.int8),
         f32.half() + torch.tensor([1.0], dtype=torch.float16), torch.true_divide(u8, 3), i32.float().mean(),
         i32.sum(), u8.sum(), b.sum(), torch.tensor([1, 2], dtype=torch.int8).prod(), i32.cumsum(0), f32.to(torch.int64),
         torch.where(b, i32, 1.5), torch.where(b, f32, i32), torch.maximum(i32, f32), torch.clamp(i32, 0.5), u8.float() / 255]
for p in pairs:
    print(p.dtype, p.tolist())
print(torch.result_type(i32, 1.0), torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.float64, torch.int32))
print(torch.get_default_dtype(), torch.tensor(1.0).dtype, torch.tensor(1).dtype, torch.arange(3.0).dtype, torch.full((1,), 2).dtype)
print(i32.float().dtype, u8.char().tolist() if hasattr(u8, "char") else None, f32.type(torch.int32).tolist(), f32.type())
print(torch.finfo(torch.float32).eps, torch.iinfo(torch.int8).max, torch.finfo(torch.float16).max, torch.finfo().tiny)
try:
    i32.add_(f32)
except RuntimeError as e:
    print("RuntimeError", str(e))
