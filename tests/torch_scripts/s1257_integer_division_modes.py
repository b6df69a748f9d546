# integer tensors: div rounding modes, remainder and fmod with negatives, floor_divide
import torch

a = torch.tensor([7, -7, 7, -7])
b = torch.tensor([2, 2, -2, -2])
print(torch.div(a, b), torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"))
print(a % b, torch.remainder(a, b), torch.fmod(a, b))
print(a // b, torch.floor_divide(a, b))
print(torch.div(a, b, rounding_mode="floor").dtype, torch.div(a, b).dtype)
f = torch.tensor([7.5, -7.5])
print(torch.div(f, 2, rounding_mode="floor"), torch.div(f, 2, rounding_mode="trunc"), f % 2, torch.fmod(f, 2))
try:
    torch.tensor([1, 2]) // torch.tensor([0, 1])
except RuntimeError as e:
    print("RuntimeError", e)
