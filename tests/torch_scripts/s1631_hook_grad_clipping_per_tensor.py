# per-tensor gradient clipping with register_hook, and post-accumulate hooks doing SGD steps
import torch

w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
h = w.register_hook(lambda g: g.clamp(-1.0, 1.0))
loss = (w * torch.tensor([5.0, 0.5, -3.0])).sum()
loss.backward()
print(w.grad)
h.remove()
w.grad = None
lr = 0.1


def step(p):
    with torch.no_grad():
        p -= lr * p.grad
    p.grad = None


h2 = w.register_post_accumulate_grad_hook(step)
for _ in range(3):
    (w ** 2).sum().backward()
print(w, w.grad)
h2.remove()
v = torch.tensor([1.0, 1.0], requires_grad=True)
u = v * 2
u.register_hook(lambda g: print("u grad", g))
u.register_hook(lambda g: g * 10)
u.sum().backward()
print(v.grad)
