# dtype promotion: int tensors with float scalars, float32 with float64 0-dim tensors, in-place refusals
import torch

i = torch.tensor([1, 2, 3])
f32 = torch.tensor([1.0, 2.0], dtype=torch.float32)
print((i * 2.5).dtype, (i / 2).dtype, (i // 2).dtype, (i + True).dtype)
print((f32 * torch.tensor(2.0, dtype=torch.float64)).dtype, (f32 * torch.tensor([2.0, 3.0])).dtype)
print((torch.tensor([True, False]) + torch.tensor([True, True])).dtype)
print((torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype)
print((torch.tensor([200], dtype=torch.uint8) + 100), torch.tensor([-1], dtype=torch.int8) * 200)
print(torch.result_type(i, 1.0), torch.result_type(f32, 1j), torch.promote_types(torch.int32, torch.float16))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float64))
try:
    i += 1.5
except RuntimeError as e:
    print(e)
try:
    torch.tensor([True]).add_(1)
except RuntimeError as e:
    print(e)
j = torch.tensor([1, 2, 3])
j *= 2
print(j, j.dtype)
f32 += torch.tensor([0.5, 0.5])
print(f32, f32.dtype)
print(torch.tensor(3) ** 2, torch.tensor(3) ** 0.5, torch.tensor([2, 4]) ** -1.0)
print((torch.tensor([7, -7]) % 3), torch.fmod(torch.tensor([7, -7]), 3), torch.tensor([7, -7]) // 2)
