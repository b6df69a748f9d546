# dtype promotion: result_type, promote_types, can_cast, 0-d tensors vs dims, int/bool math
import torch

i8 = torch.tensor([1, 2], dtype=torch.int8)
u8 = torch.tensor([1, 2], dtype=torch.uint8)
f32 = torch.tensor([1.0], dtype=torch.float32)
print((i8 + u8).dtype, (u8 + torch.tensor(5)).dtype, (i8 * 2.5).dtype)
print((f32 + torch.tensor(2.0, dtype=torch.float64)).dtype, (f32 + torch.tensor([2.0])).dtype)
print(torch.result_type(i8, 1.0), torch.result_type(u8, torch.tensor(-1)), torch.result_type(torch.tensor(True), 2))
print(torch.promote_types(torch.int32, torch.float16), torch.promote_types(torch.uint8, torch.int8))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float32), torch.can_cast(torch.bool, torch.uint8))
print((torch.tensor([True, False]) + torch.tensor([True, True])).dtype, torch.tensor([True]) * 3)
print(torch.tensor([5, -5]) / 2, torch.tensor([5, -5]) // 2, torch.tensor([5, -5]) % 3)
print(torch.fmod(torch.tensor([5, -5]), 3), torch.remainder(torch.tensor([5.5, -5.5]), 2))
print(torch.tensor([7]).true_divide(2).dtype, torch.tensor([7]).div(2, rounding_mode="floor"), torch.tensor([-7]).div(2, rounding_mode="trunc"))
print((torch.tensor([1, 2]) + torch.tensor([0.5], dtype=torch.float32)).dtype, torch.tensor([1, 2]).float().dtype)
print((torch.tensor([1 + 1j]) * torch.tensor([2.0], dtype=torch.float32)).dtype)
try:
    torch.tensor([True]) - torch.tensor([False])
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
