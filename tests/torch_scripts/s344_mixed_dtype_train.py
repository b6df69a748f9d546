import torch
import torch.nn as nn

model = nn.Linear(3, 2).float()
print(model.weight.dtype)
x64 = torch.ones(4, 3)
out = model(x64.float())
print(out.dtype)
model.double()
print(model.weight.dtype, model(x64).dtype)
model.to(torch.float32)
print(model.bias.dtype)
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 0.5, 0.5], dtype=torch.float32)
print((i * f).dtype, (i / 2).dtype, (i // 2).dtype, (i * 2.5).dtype, (f + torch.tensor(1.0)).dtype)
print((i + True).dtype, (torch.tensor([True]) + torch.tensor([True])).dtype, torch.tensor([1, 2], dtype=torch.int8).sum().dtype)
print(torch.result_type(i, 1.0), torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.float64, torch.int32))
h = torch.tensor([1.0, 2.0], dtype=torch.float16)
print((h * 2).dtype, (h + f[:2]).dtype, h.sum().dtype, h.mean())
t = torch.zeros(3, dtype=torch.int64)
try:
    t += torch.tensor([0.5, 0.5, 0.5])
except RuntimeError as e:
    print("RuntimeError:", e)
t2 = torch.zeros(3)
t2 += i
print(t2, t2.dtype)
w = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)
l = (w.double() * torch.tensor([3.0, 4.0])).sum()
l.backward()
print(w.grad, w.grad.dtype, l.dtype)
loss = nn.functional.cross_entropy(torch.randn(2, 3, dtype=torch.float32), torch.tensor([0, 2]))
print(loss.dtype)
print(torch.tensor([1, 2]).to(torch.float32).requires_grad_().dtype)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print("RuntimeError")
print(torch.arange(5).float().dtype, torch.arange(0, 1, 0.25).dtype, torch.arange(5, dtype=torch.float32).dtype)
print(torch.tensor(3, dtype=torch.int64) / torch.tensor(2), torch.tensor(7).div(2, rounding_mode="floor"), torch.tensor(-7).div(2, rounding_mode="trunc"))
