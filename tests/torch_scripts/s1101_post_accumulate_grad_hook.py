# Tensor.register_post_accumulate_grad_hook for an in-backward optimizer step; multi grad hook
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5], requires_grad=True)
def step(p):
    with torch.no_grad():
        p.add_(p.grad, alpha=-0.1)
    p.grad = None
hw = w.register_post_accumulate_grad_hook(step)
for _ in range(3):
    ((w * torch.tensor([3.0, 4.0])).sum() + b).pow(2).backward()
print(w, w.grad, b.grad)
hw.remove()
seen = []
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
h = torch.autograd.graph.register_multi_grad_hook((x, y), lambda grads: seen.append([None if g is None else g.item() for g in grads]))
(x * y).backward()
(x * 5).backward()
print(seen)
h.remove()
try:
    torch.tensor(1.0).register_post_accumulate_grad_hook(step)
except RuntimeError as e:
    print(e)
