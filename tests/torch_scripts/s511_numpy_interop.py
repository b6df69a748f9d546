import numpy as np
import torch

a = np.arange(6, dtype=np.float64).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100.0
print(t[0, 0].item(), t.dtype, t.shape)
t[1, 2] = -5.0
print(a[1, 2])
u = torch.as_tensor(a)
v = torch.tensor(a)
a[0, 1] = 42.0
print(u[0, 1].item(), v[0, 1].item())
print(torch.from_numpy(np.array([1, 2], dtype=np.int32)).dtype,
      torch.from_numpy(np.array([True])).dtype, torch.from_numpy(np.float32([1.5])).dtype)
x = torch.linspace(0, 1, 5)
arr = x.numpy()
arr *= 2
print(x)
w = torch.ones(3, requires_grad=True)
try:
    w.numpy()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:45])
print(w.detach().numpy(), type(w.detach().numpy()).__name__)
print(np.mean(x.numpy()), np.asarray(x).dtype)
s = np.float64(2.5) * torch.ones(2)
print(type(s).__name__, s)
s2 = torch.ones(2) * np.float32(3.0)
print(s2.dtype)
print(torch.tensor(np.float64(1.5)).dtype, torch.tensor(np.int64(3)).dtype)
print((torch.arange(3) + np.int64(1)).dtype)
grid = np.meshgrid(np.arange(2), np.arange(3), indexing="ij")
tg = torch.stack([torch.from_numpy(g) for g in grid])
print(tg.shape, tg.dtype)
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(np.linalg.det(y.numpy()), torch.linalg.det(y).item())
print(y.tolist(), type(y.tolist()[0][0]).__name__, y.numpy().tolist() == y.tolist())
nz = np.nonzero(np.array([0, 3, 0, 5]))[0]
print(torch.from_numpy(nz), torch.tensor(nz.tolist()))
print(torch.from_numpy(a.T.copy()).is_contiguous(), torch.from_numpy(a.T).shape)
