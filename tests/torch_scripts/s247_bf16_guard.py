import torch

use_bf16 = False
dtype = torch.bfloat16 if use_bf16 else torch.float32
print(dtype, torch.bfloat16, torch.bfloat16.is_floating_point, torch.bfloat16.itemsize)
half_types = (torch.float16, torch.bfloat16)
x = torch.ones(3, dtype=dtype)
print(x.dtype in half_types, x.dtype == torch.bfloat16, torch.float16 in half_types)
print({torch.bfloat16: "bf16", torch.float16: "fp16"}[torch.bfloat16])
print(torch.float8_e4m3fn.itemsize, torch.float8_e5m2.is_floating_point)
print(torch.complex32, torch.chalf, torch.chalf.is_complex, torch.complex32 == torch.chalf)
print(x * 2)
print(torch.finfo(torch.bfloat16).eps, torch.finfo(torch.bfloat16).max)
with torch.autocast("cpu", dtype=torch.bfloat16, enabled=False):
    y = x + 1
print(y.dtype)
