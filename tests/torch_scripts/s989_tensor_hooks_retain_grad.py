# tensor hooks: register_hook modifying grads, on non-leaves with retain_grad, post-accumulate hooks, removal
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
seen = []
h = x.register_hook(lambda g: seen.append(g.clone()) or g * 10)
y = x * x
y.retain_grad()
y.register_hook(lambda g: g + 1)
z = y.sum() * 2
z.backward()
print(seen, x.grad, y.grad)
h.remove()
x.grad = None
(x * x).sum().backward()
print(x.grad)
w = torch.tensor([0.5, -0.5], requires_grad=True)
calls = []
w.register_post_accumulate_grad_hook(lambda p: calls.append(p.grad.tolist()))
(w * 3).sum().backward()
(w * 2).sum().backward()
print(calls)
a = torch.tensor(2.0, requires_grad=True)
b = a * 3
b.register_hook(lambda g: print("b grad", g))
c = b ** 2
c.register_hook(lambda g: print("c grad", g))
c.backward()
print(a.grad, b.grad is None, b.is_leaf, b.requires_grad)
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as e:
    print(e)
