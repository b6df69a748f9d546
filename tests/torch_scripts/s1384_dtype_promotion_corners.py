# dtype promotion corners: int/float scalars, bool, uint8, integer division
import torch

i = torch.tensor([1, 2, 3])
b = torch.tensor([True, False, True])
u = torch.tensor([250, 3], dtype=torch.uint8)
f32 = torch.tensor([1.0], dtype=torch.float32)
print((i + 1.5).dtype, (i * True).dtype, (b + b).dtype, (b + 1).dtype, (b * 2.0).dtype)
print(i / 2, (i / 2).dtype, i // 2, torch.tensor([-7, 7]) // 2, torch.tensor([-7, 7]) % 3)
print(u + 10, (u + 10).dtype, (u - 5), (u + torch.tensor(1)).dtype, (u + torch.tensor([1])).dtype)
print((f32 + torch.tensor(2.0, dtype=torch.float64)).dtype, (f32 + torch.tensor([2.0], dtype=torch.float64)).dtype)
print((f32 * 1e40), (i.to(torch.int8) * 100))
print(torch.tensor([1, 2], dtype=torch.int32) + torch.tensor([1], dtype=torch.int64))
print((torch.tensor(3) + 2.5).dtype, (torch.tensor(3, dtype=torch.int16) + 70000).dtype)
print(torch.tensor([1.5j]).dtype, (f32 + 1j).dtype, (i * 1j).dtype)
print(i ** 2, (i ** -1.0), (i ** 0.5).dtype, (2 ** i).dtype, (2.0 ** i).dtype)
