import torch
import torch.nn as nn

print(torch.get_default_dtype(), torch.tensor(1.0).dtype, torch.tensor(1j).dtype)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.0]).dtype, torch.zeros(2).dtype, torch.arange(3.0).dtype, torch.arange(3).dtype, torch.tensor(1j).dtype)
print(torch.linspace(0, 1, 3).dtype, nn.Linear(2, 2).weight.dtype, torch.randn(2).dtype, torch.full((1,), 2).dtype, torch.full((1,), 2.0).dtype)
print((torch.ones(1, dtype=torch.int64) * 0.5).dtype, torch.as_tensor([1.5]).dtype, torch.tensor(2.5).item())
import numpy as np
try:
    nn.Linear(2, 1)(torch.ones(1, 2, dtype=torch.float64))
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.from_numpy(np.ones(2)).dtype, torch.tensor(np.float64(1.5)).dtype, torch.tensor([np.float64(1.5)]).dtype)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.0]).dtype, nn.Linear(2, 2).bias.dtype, torch.tensor(1j).dtype, torch.ones(1).dtype)
m32 = nn.Linear(2, 1).float()
print(m32(torch.ones(1, 2, dtype=torch.float32)).dtype, m32.double().weight.dtype)
print(torch.get_default_dtype() is torch.float64, torch.float64.is_floating_point, torch.int32.is_signed, torch.float32.itemsize)
try:
    torch.set_default_dtype(torch.int64)
except TypeError as e:
    print("TypeError:", str(e)[:59])
print(torch.finfo(torch.get_default_dtype()).eps, torch.finfo().bits)
