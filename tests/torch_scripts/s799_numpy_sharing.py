# from_numpy / numpy() share memory; as_tensor shares when it can; torch.tensor copies
import numpy as np
import torch

a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100
print(t, t.dtype)
t[1, 2] = -1
print(a)
u = torch.as_tensor(a)
a[0, 1] = 55
print(u[0, 1].item())
c = torch.tensor(a)
a[0, 2] = 77
print(c[0, 2].item())
w = torch.as_tensor(a, dtype=torch.float64)
a[1, 0] = 9
print(w[1, 0].item(), w.dtype)
n = t.numpy()
n += 1
print(t[0])
i = torch.from_numpy(np.array([1, 2, 3], dtype=np.int16))
print(i.dtype, i * 2, (i * 2).dtype)
b = torch.from_numpy(np.array([True, False]))
print(b, b.dtype)
try:
    torch.from_numpy([1, 2, 3])
except TypeError as e:
    print("TypeError", e)
f = torch.ones(3).numpy()
print(type(f).__name__, f.dtype)
print(torch.zeros(2, 2).double().numpy().dtype, torch.tensor(3.5).numpy(), torch.tensor(3.5).numpy().shape)
