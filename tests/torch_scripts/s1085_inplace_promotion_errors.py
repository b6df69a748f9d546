# In-place ops that cannot cast: int tensor += float tensor, and iinfo/finfo fields
import torch

a = torch.tensor([1, 2, 3])
try:
    a += torch.tensor([0.5, 0.5, 0.5])
except RuntimeError as e:
    print("RuntimeError:", e)
a += 2
print(a)
b = torch.tensor([1, 2], dtype=torch.int32)
b.mul_(3)
print(b, b.dtype)
try:
    b.div_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
f = torch.tensor([1.0, 2.0], dtype=torch.float32)
f += torch.tensor([1.0, 1.0], dtype=torch.float64)
print(f.dtype, f)
print(torch.iinfo(torch.int16).max, torch.iinfo(torch.uint8).min, torch.iinfo(torch.int64).bits)
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).tiny, torch.finfo(torch.float16).max)
print(torch.finfo().dtype, torch.finfo(torch.float32).resolution)
