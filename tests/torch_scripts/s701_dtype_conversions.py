import numpy as np
import torch

x = torch.tensor([1.7, -2.2, 3.5])
print(x.type(), x.type(torch.int32), x.type("torch.LongTensor"), x.long().type())
print(x.to(torch.int16), x.to(dtype=torch.float32, copy=True).dtype, x.to("cpu", torch.float16).dtype)
print(x.to(torch.tensor([1], dtype=torch.int8)).dtype, x.double().dtype, x.half().dtype, x.bool(), x.byte() if False else x.abs().byte())
print(x.int().float(), x.short().dtype, x.char().dtype)
a = np.array([1, 2, 3], dtype=np.int32)
t = torch.from_numpy(a)
a[0] = 100
print(t, t.dtype)
s = torch.as_tensor(a)
s[1] = -5
print(a)
print(torch.as_tensor(a, dtype=torch.float64), torch.tensor(a).dtype)
n = torch.ones(3).numpy()
print(type(n).__name__, n.dtype)
print(torch.tensor(np.float32(2.5)).dtype, torch.tensor(np.array(2)).dtype, torch.tensor([np.int8(1)]).dtype)
print(torch.tensor([1, 2.0]).dtype, torch.tensor([True, 2]).dtype, torch.tensor([[1], [2]]).dtype, torch.tensor([1j, 2]).dtype)
print(torch.tensor(3).item().__class__.__name__, torch.tensor(3.0).item().__class__.__name__, torch.tensor(True).item())
print(int(torch.tensor(3.9)), float(torch.tensor(2)), bool(torch.tensor([0.0])), complex(torch.tensor(1.5)))
print(torch.tensor([1, 2, 3], dtype=torch.int8).tolist(), torch.tensor([0.1], dtype=torch.float32).tolist())
print(torch.tensor(2.5).__index__() if False else torch.tensor(7).__index__(), [10, 20, 30][torch.tensor(1)])
print(x.is_floating_point(), x.long().is_floating_point(), torch.is_tensor(x), torch.is_floating_point(x), torch.is_complex(x))
print(x.element_size(), x.float().element_size(), x.long().itemsize, x.nbytes)
