# finfo/iinfo, torch.Size arithmetic and printing, device and dtype reprs
import torch

print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).max, torch.finfo().tiny)
print(torch.iinfo(torch.int8).min, torch.iinfo(torch.int32).max, torch.iinfo(torch.uint8))
s = torch.ones(2, 3, 4).shape
print(s, s[1:], s + (5,), s.numel(), len(s), s == (2, 3, 4), torch.Size([2, 3]))
print(torch.ones(2).device, torch.device("cpu"), torch.float32, torch.int64, torch.bool)
print(torch.zeros(1).dtype.is_floating_point, torch.int32.is_signed, torch.float16.itemsize, torch.complex64.is_complex)
print(str(torch.float64), repr(torch.long), torch.get_default_dtype())
