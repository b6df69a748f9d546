# tensor hooks: post-accumulate-grad hooks, retain_grad, hook changing grads, removal
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
h = w.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
(w * 3).sum().backward()
(w * 2).sum().backward()
print(seen, w.grad)
h.remove()
w.grad = None
(w * 1).sum().backward()
print(len(seen))


def sgd_in_hook(p):
    with torch.no_grad():
        p -= 0.1 * p.grad
    p.grad = None


v = torch.tensor([1.0, -1.0], requires_grad=True)
v.register_post_accumulate_grad_hook(sgd_in_hook)
(v ** 2).sum().backward()
print(v, v.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = y * y
hz = z.register_hook(lambda g: g * 10)
z.sum().backward()
print(y.grad, x.grad, y.is_leaf, y.retains_grad, x.retains_grad)
try:
    y.register_post_accumulate_grad_hook(lambda p: None)
except RuntimeError as e:
    print("RuntimeError", e)
t = torch.tensor([1.0], requires_grad=True)
t.register_hook(lambda g: None)
t.register_hook(lambda g: g + 1)
(t * 5).backward()
print(t.grad)
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError", e)
