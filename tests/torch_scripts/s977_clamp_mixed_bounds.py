# clamp with number and tensor bounds mixed (a TypeError), clamp_min/max with tensors, clip alias
import torch

x = torch.tensor([-2.0, 0.5, 3.0])
hi = torch.tensor([1.0, 1.0, 2.5])
try:
    torch.clamp(x, min=0.0, max=hi)
except TypeError as e:
    print("TypeError", str(e).splitlines()[0])
try:
    x.clamp(min=torch.tensor(0.0), max=1.0)
except TypeError as e:
    print("TypeError", str(e).splitlines()[0])
print(torch.clamp(x, min=torch.zeros(3), max=hi))
print(x.clamp_min(torch.tensor([0.0, 1.0, 0.0])), x.clamp_max(hi))
print(torch.clip(x, -1, 1), x.clip(max=0.0))
try:
    torch.clamp(x)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.clamp(torch.tensor([1, 5, 9]), min=2.5).dtype)
