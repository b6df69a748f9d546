# clamp on integer tensors with float bounds, clamp_ in-place dtype rule, and clamp of bool errors
import torch

i = torch.tensor([-5, 0, 5, 10])
print(torch.clamp(i, 0, 7), torch.clamp(i, min=0.5), torch.clamp(i, max=2.5).dtype)
print(torch.clamp(i, torch.tensor(1), torch.tensor(6)))
try:
    i.clamp_(min=0.5)
except RuntimeError as e:
    print(e)
try:
    torch.clamp(i)
except RuntimeError as e:
    print(e)
print(torch.clamp(torch.tensor([1.5, -2.5], dtype=torch.float32), min=torch.tensor(0.0)).dtype)
print(torch.tensor([0.2, 0.7]).clamp(min=torch.tensor([0.5, 0.5]), max=torch.tensor(1.0)))
