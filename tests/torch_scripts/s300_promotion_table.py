import torch

dtypes = [torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16,
          torch.float32, torch.float64, torch.complex64]
names = [str(d).split(".")[1] for d in dtypes]
print("promote_types")
for a, na in zip(dtypes, names):
    print(na.ljust(10), " ".join(str(torch.promote_types(a, b)).split(".")[1][:5].ljust(5) for b in dtypes))
print("result_type with python scalars")
for d in dtypes:
    if d == torch.float16:
        continue  # (no complex32 kernels on CPU anyway)
    t = torch.ones(2, dtype=d)
    print(str(d).split(".")[1].ljust(10), torch.result_type(t, 1), torch.result_type(t, 1.5),
          torch.result_type(t, True), torch.result_type(t, 1j))
print("0-dim tensors don't win")
print((torch.ones(2, dtype=torch.int8) + torch.tensor(1000)).dtype,
      (torch.ones(2, dtype=torch.float16) * torch.tensor(2.0)).dtype,
      (torch.ones(2, dtype=torch.int32) * torch.tensor(2.5)).dtype,
      (torch.tensor(1, dtype=torch.uint8) + torch.tensor(-1, dtype=torch.int8)).dtype)
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int32, torch.float16),
      torch.can_cast(torch.bool, torch.uint8), torch.can_cast(torch.complex64, torch.float64))
print((torch.tensor([3], dtype=torch.int32) / 2).dtype, (torch.tensor([3]) // 2).dtype,
      (torch.tensor([True]) + True).dtype, (torch.tensor([1.0], dtype=torch.float16) + 1).dtype)
print(torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8))
print(torch.tensor([100], dtype=torch.int8) * 2)
print(torch.get_default_dtype(), torch.tensor([1, 2]).dtype, torch.tensor([1.0, 2]).dtype, torch.tensor(1j).dtype)
x = torch.ones(3, dtype=torch.int64)
try:
    x += 0.5
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.ones(3, dtype=torch.float32)
x += torch.ones(3, dtype=torch.float64)
print(x.dtype)
print(torch.finfo(torch.float16).max, torch.finfo(torch.float16).eps, torch.iinfo(torch.int16).min)
print(torch.finfo(torch.float32).tiny, torch.finfo().dtype, torch.iinfo(torch.uint8).bits)
