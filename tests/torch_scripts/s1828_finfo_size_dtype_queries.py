# torch.finfo / iinfo fields and reprs, torch.Size arithmetic, dtype attributes
import torch

for dt in [torch.float16, torch.float32, torch.float64]:
    fi = torch.finfo(dt)
    print(fi.bits, fi.eps, fi.max, fi.min, fi.tiny, fi.smallest_normal, fi.resolution, fi.dtype)
print(torch.finfo(), torch.finfo(torch.float32))
for dt in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]:
    ii = torch.iinfo(dt)
    print(ii.bits, ii.min, ii.max, ii.dtype)
print(torch.iinfo(torch.int32))
try:
    torch.iinfo(torch.float32)
except TypeError as e:
    print("TypeError", e)
s = torch.Size([2, 3, 4])
print(s, s.numel(), s[1:], s + (5,), s[-1], len(s), s == (2, 3, 4), type(s[1:]).__name__)
print(torch.Size([]), torch.Size([]).numel(), tuple(s), list(s), s.index(3), s.count(2))
print(torch.float32.is_floating_point, torch.int64.is_signed, torch.uint8.is_signed,
      torch.complex64.is_complex, torch.float64.itemsize, torch.bool.itemsize)
print(torch.float32.to_complex(), torch.complex128.to_real(), str(torch.half), repr(torch.long))
print(torch.get_default_dtype(), torch.is_floating_point(torch.tensor([1])), torch.double is torch.float64)
print(torch.tensor([1.0]).dtype == torch.float64, torch.float64 == torch.double, {torch.float32: "f"}[torch.float])
