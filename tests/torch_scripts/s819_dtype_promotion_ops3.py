# Promotion users trip over: int tensor * float scalar, int / int, uint8 + int8, bool sum,
# float32 + float64 tensor, 0-d float64 with float32 tensor, torch.result_type, can_cast
import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([1.0, 2.0], dtype=torch.float32)
print((i * 2.5).dtype, (i / 2).dtype, (i // 2).dtype, (i ** 2).dtype, (i ** 0.5).dtype, (i ** -1.0).dtype)
print((torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype)
print(torch.tensor([True, True]).sum().dtype, torch.tensor([True]).float().dtype, (torch.tensor([True]) + 1).dtype)
print((f + torch.tensor([1.0, 2.0], dtype=torch.float64)).dtype, (f + torch.tensor(1.0, dtype=torch.float64)).dtype)
print((f * torch.tensor(2)).dtype, (torch.tensor([1], dtype=torch.int16) * torch.tensor(100000)).dtype)
print(torch.result_type(i, 1.0), torch.result_type(f, i), torch.result_type(torch.tensor(1, dtype=torch.int8), 300))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.bool, torch.uint8))
print(torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.float16, torch.int64), torch.promote_types(torch.bool, torch.bool))
print((i == 2.0).dtype, (i > 1.5), torch.maximum(i, torch.tensor([2.5, 0.0, 9.0])).dtype)
print(torch.tensor([5], dtype=torch.int32).div(2, rounding_mode="floor").dtype, torch.tensor([5]).div(2, rounding_mode="trunc"))
print(torch.clamp(i, 0.5, 2.5), torch.clamp(i, min=2).dtype, i.float().clamp(torch.tensor(1.5)).dtype)
print(torch.where(i > 1, i, 0.5).dtype, torch.where(i > 1, 1.5, 2).dtype, torch.where(f > 1, f, torch.tensor(0.0)).dtype)
print(torch.cat([i, f.long()]).dtype, torch.stack([f, f.double()]).dtype if True else None)
print(torch.tensor([1, 2], dtype=torch.int64).mean(dtype=torch.float32), torch.tensor([2, 4]).sum(dtype=torch.float64))
