import torch
import torch.nn.functional as F

x1 = torch.arange(1.0, 6.0).reshape(1, 1, 5)
for mode in ["constant", "reflect", "replicate", "circular"]:
    print(mode, F.pad(x1, (2, 3), mode=mode))
print(F.pad(x1, (1, 1), value=-1.0), F.pad(x1, (-1, 2)))
x2 = torch.arange(12.0).reshape(1, 1, 3, 4)
for mode in ["reflect", "replicate", "circular"]:
    print(mode, F.pad(x2, (1, 2, 2, 1), mode=mode))
print(F.pad(x2, (0, 0, 1, 0)).shape, F.pad(x2[0, 0], (1, 1)).shape, F.pad(x2, (1, 1, 1, 1, 1, 1)).shape)
x3 = torch.arange(16.0).reshape(1, 1, 2, 2, 4)
print(F.pad(x3, (1, 1, 1, 1, 1, 0), mode="replicate").shape, F.pad(x3, (1, 1, 1, 1, 1, 1), mode="circular")[0, 0, 0])
print(F.pad(x3, (2, 1, 1, 0, 1, 1), mode="reflect").sum())
print(F.pad(torch.tensor([[1, 2], [3, 4]]), (1, 0), value=9))
print(F.pad(torch.tensor([True, False]), (1, 1)))
w = torch.tensor([[[1.0, 2.0, 3.0, 4.0]]], requires_grad=True)
for mode in ["reflect", "replicate", "circular"]:
    w.grad = None
    (F.pad(w, (2, 2), mode=mode) * torch.arange(8.0)).sum().backward()
    print(mode, w.grad)
try:
    F.pad(x1, (5, 5), mode="reflect")
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.nn.ReflectionPad1d((1, 2))(x1), torch.nn.ZeroPad2d(1)(x2).shape, torch.nn.CircularPad1d(1)(x1))
