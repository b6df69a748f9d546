import torch

for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    fi = torch.finfo(dt)
    print(dt, fi.bits, fi.eps, fi.max, fi.min, fi.tiny, fi.smallest_normal, fi.resolution, fi.dtype)
print(torch.finfo())
print(torch.finfo(torch.float32))
for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    ii = torch.iinfo(dt)
    print(dt, ii.bits, ii.min, ii.max, ii.dtype)
print(torch.iinfo(torch.int32))
print(torch.tensor(1.0, dtype=torch.float32) + torch.finfo(torch.float32).eps / 2 == 1.0)
x = torch.tensor([1e-30, 1e30], dtype=torch.float32)
print(x.clamp(min=torch.finfo(torch.float32).tiny), torch.finfo(x.dtype).max > 3e38)
eps = torch.finfo(torch.float64).eps
p = torch.tensor([0.0, 0.5, 1.0])
print(torch.log(p.clamp(eps, 1 - eps)))
print(torch.float32.is_floating_point, torch.int32.is_signed, torch.uint8.is_signed, torch.bool.is_floating_point)
print(torch.float64.itemsize, torch.int16.itemsize, torch.complex64.is_complex, torch.float32.to_complex())
print(torch.complex128.to_real(), torch.finfo(torch.complex64).eps == torch.finfo(torch.float32).eps)
try:
    torch.finfo(torch.int32)
except TypeError as e:
    print("TypeError", e)
try:
    torch.iinfo(torch.float32)
except TypeError as e:
    print("TypeError", e)
