# type promotion: int+float scalar, int tensor + float tensor, bool+int, uint8+int8, float32+float64
import torch

i = torch.tensor([1, 2, 3])
f32 = torch.tensor([1.0, 2.0], dtype=torch.float32)
cases = [
    i + 1.5, i * 2, i / 2, i // 2, i + torch.tensor(1.5), i + True,
    torch.tensor([True, False]) + torch.tensor([True, True]),
    torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8),
    f32 + torch.tensor([1.0, 2.0], dtype=torch.float64),
    f32 + torch.tensor(1.0, dtype=torch.float64),
    f32 * 2.5, torch.tensor([1], dtype=torch.int32) + torch.tensor([1], dtype=torch.int64),
    torch.tensor([1], dtype=torch.int16) * 1.0, torch.tensor([3]) ** 2, torch.tensor([3]) ** 0.5,
    torch.tensor([True]) * 1.5,
]
for c in cases:
    print(c.dtype, c)
print(torch.result_type(i, 1.0), torch.promote_types(torch.int32, torch.float32), torch.can_cast(torch.float64, torch.int32))
