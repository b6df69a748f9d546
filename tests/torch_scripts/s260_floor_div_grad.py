import torch

x = torch.tensor([5.0, -3.0, 7.5], requires_grad=True)
q = x // 2
print(q, type(q.grad_fn).__name__, repr(q.grad_fn).split(" object")[0])
try:
    (q * x).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.grad)
r = torch.div(x, 2, rounding_mode="floor")
print(r)
(r * x).sum().backward()
print(x.grad)
y = x.detach().clone().requires_grad_()
z = y.clone()
z //= 3
print(z)
print(torch.remainder(x, 2), torch.fmod(x, -2))
