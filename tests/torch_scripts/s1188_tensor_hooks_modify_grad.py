# Tensor.register_hook returning a new gradient, hooks on intermediates, hook on leaf runs before accumulation, remove
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h1 = x.register_hook(lambda g: g * 2)
h2 = x.register_hook(lambda g: print("second sees", g))
y = (x ** 2).sum()
y.backward()
print(x.grad)
h1.remove(); h2.remove()
x.grad = None
mid = x * 3
mid.register_hook(lambda g: g.clamp(max=0.5))
(mid ** 2).sum().backward()
print(x.grad)
z = torch.tensor([1.0, -1.0], requires_grad=True)
w = z.exp()
w.register_hook(lambda g: torch.zeros_like(g))
(w.sum() + z.sum()).backward()
print(z.grad)
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
