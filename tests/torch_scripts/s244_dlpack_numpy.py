import numpy as np
import torch
from torch.utils.dlpack import from_dlpack, to_dlpack

a = np.arange(6.0).reshape(2, 3)
t = torch.from_dlpack(a)
t[0, 0] = 100.0
print(a[0, 0], t.shape, t.dtype)
x = torch.linspace(0, 1, 5)
n = np.from_dlpack(x)
n[1] = -1.0
print(x)
cap = to_dlpack(torch.arange(4))
y = from_dlpack(cap)
print(y, y.dtype)
try:
    from_dlpack(cap)
except RuntimeError as e:
    print("consumed:", str(e)[:40])
w = torch.ones(2, requires_grad=True)
try:
    np.from_dlpack(w)
except BufferError as e:
    print("BufferError:", e)
print(np.from_dlpack(w.detach()))
print(x.__dlpack_device__()[1])
