# device and dtype objects as values: repr/str of torch.device, comparing to strings, devices as
# dict keys, dtype in a set lookups, Size in a list repr, tensors' device attribute
import torch

d = torch.device("cpu")
print(repr(d), str(d), d.type, d.index, d == torch.device("cpu"), torch.device("cpu:0"), torch.device("cuda", 1))
print(repr(torch.device("cuda:0")), torch.device("cuda:0").index, torch.device(type="cpu"))
print({d: 1}[torch.device("cpu")], torch.ones(1).device == d, str(torch.ones(1).device) == "cpu")
print({torch.float32: "f32", torch.int64: "i64"}[torch.ones(1, dtype=torch.float32).dtype], torch.float64 in {torch.float64, torch.int8})
print([torch.Size([2, 3]), torch.Size([])], repr(torch.Size([1])), str(torch.Size([4, 5])), (torch.Size([2]),))
print(torch.ones(2).shape == torch.Size([2]), torch.Size([2, 3])[0], tuple(torch.Size([2, 3])), torch.Size((1, 2)) + torch.Size((3,)))
print([torch.float32, torch.bool], (torch.int16,), {"d": torch.complex64})
try:
    torch.device("gpu")
except RuntimeError as e:
    print("RuntimeError", str(e)[:80])
print(torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available())
