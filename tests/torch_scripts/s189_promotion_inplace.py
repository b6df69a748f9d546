import torch

f32 = torch.tensor([1.5, 2.5], dtype=torch.float32)
f64 = torch.tensor([1.0, 2.0], dtype=torch.float64)
i64 = torch.tensor([1, 2])
i32 = torch.tensor([3, 4], dtype=torch.int32)
b = torch.tensor([True, False])
for x, y in [(f32, f64), (f32, i64), (i32, i64), (b, i32), (b, f32), (f32, 2.5), (i64, 2.5), (i32, 7), (b, True)]:
    print((x + y).dtype, torch.result_type(x, y))
print(torch.promote_types(torch.int8, torch.uint8), torch.promote_types(torch.float16, torch.int64))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float32))
for x, y in [(i64, f32), (i32, 1.5), (b, i64)]:
    try:
        x.add_(y)
    except RuntimeError as e:
        print("RuntimeError:", e)
z = f32.clone()
z.add_(f64)
print(z, z.dtype)
w = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)
v = torch.tensor([0.5, 0.25], dtype=torch.float64, requires_grad=True)
out = (w * v).sum()
out.backward()
print(out.dtype, w.grad.dtype, v.grad.dtype, w.grad, v.grad)
print((i64 / 2).dtype, (i64 // 2).dtype, torch.true_divide(i32, i32).dtype, (i32 ** 2).dtype, (i32 ** 0.5).dtype)
print(torch.tensor(3) * 1.0, (torch.tensor(3, dtype=torch.uint8) - 5))
