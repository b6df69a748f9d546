# Tensor.register_hook that rescales gradients, clamps them, records them into a dict; hooks
# on intermediate values with retain_grad; removing a hook
import torch

store = {}
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
h1 = x.register_hook(lambda g: g * 10)
y = x ** 2
y.register_hook(lambda g: store.setdefault("y", g.clone()))
y.retain_grad()
z = y.sum() * 2
z.backward()
print(x.grad, y.grad, store["y"])
h1.remove()
x.grad = None
(x ** 2).sum().backward()
print(x.grad)
w = torch.tensor([0.5, 5.0], requires_grad=True)
w.register_hook(lambda g: g.clamp(-1, 1))
(w ** 3).sum().backward()
print(w.grad)
a = torch.tensor(2.0, requires_grad=True)
b = a * 3
calls = []
b.register_hook(lambda g: calls.append(("first", g.item())))
b.register_hook(lambda g: calls.append(("second", g.item())) or g + 1)
(b * b).backward()
print(calls, a.grad)
try:
    torch.ones(2).register_hook(lambda g: g)
except RuntimeError as e:
    print(e)
