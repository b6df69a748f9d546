# new_* constructors inherit dtype, .type() strings, type_as, to(other), .double()/.half() chains
import torch

a = torch.tensor([1, 2], dtype=torch.int32)
print(a.new_zeros(2, 2), a.new_ones(3).dtype, a.new_full((2,), 7), a.new_empty(0).dtype, a.new_tensor([1.5, 2.5]))
f = torch.tensor([1.5], dtype=torch.float32)
print(f.new_tensor([1, 2]).dtype, f.new_zeros((1, 2), dtype=torch.float64).dtype)
print(a.type(), f.type(), a.type(torch.float64), a.type("torch.DoubleTensor").dtype)
print(a.type_as(f), f.to(a), f.to(torch.tensor([1.0])).dtype, f.to("cpu", torch.float64).dtype)
print(f.half().float(), f.double().dtype, a.long().dtype, a.char().dtype, a.byte().dtype, a.short().dtype, a.bool())
print(torch.tensor([1.7, -1.7]).int(), torch.tensor([300]).to(torch.uint8), torch.tensor([1.0, 2.0]).to(dtype=torch.int64, copy=True))
print(isinstance(a, torch.IntTensor), isinstance(f, torch.FloatTensor), torch.is_floating_point(f), a.is_floating_point(), f.element_size(), a.itemsize, f.nbytes)
