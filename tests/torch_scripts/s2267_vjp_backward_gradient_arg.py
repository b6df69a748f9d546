import torch

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * 2
i = 0
while y.data.norm() < 1000:
    y = y * 2
    i += 1
print(i, y)
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad)
try:
    y.backward(v)
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0][:60])
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
out = a.exp()
try:
    out.backward()
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
try:
    out.backward(torch.ones(3))
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
out.backward(torch.full_like(out, 0.5))
print(a.grad)
print(torch.autograd.grad(a.sin().sum(), a))
