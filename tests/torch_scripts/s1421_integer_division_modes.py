# torch.div rounding modes, floor_divide, fmod vs remainder with negatives, int overflow
import torch

a = torch.tensor([-7, -3, 3, 7])
b = torch.tensor([2, 2, -2, -2])
print(torch.div(a, b), torch.div(a, b, rounding_mode="floor"), torch.div(a, b, rounding_mode="trunc"))
print(a // b, torch.floor_divide(a, b), a % b, torch.fmod(a, b), torch.remainder(a, b))
f = a.double()
print(torch.div(f, 2, rounding_mode="floor"), torch.fmod(f, 2.5), torch.remainder(f, -2.5))
print(torch.tensor([127], dtype=torch.int8) + 1, torch.tensor([0], dtype=torch.uint8) - 1)
print(torch.tensor([2 ** 62]) * 4)
try:
    torch.tensor([1, 2]) // torch.tensor([0, 1])
except RuntimeError as e:
    print("RuntimeError", e)
