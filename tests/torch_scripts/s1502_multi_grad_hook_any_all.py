# register_multi_grad_hook: "all" sees every gradient (None for unused), "any" the first
import torch
from torch.autograd.graph import register_multi_grad_hook

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = torch.tensor([0.5, 0.5], requires_grad=True)
seen = []


def all_hook(grads):
    seen.append(["None" if g is None else g.tolist() for g in grads])


h = register_multi_grad_hook((a, b, c), all_hook)
(a * b).sum().backward()
print(seen)
(a * c).sum().backward()
print(seen[-1])
h.remove()
(a * b * c).sum().backward()
print(len(seen))

first = []
h2 = register_multi_grad_hook((a, b), lambda g: first.append(g.tolist()), mode="any")
(b * 2).sum().backward()
print(first)
(a.sum() + b.sum()).backward()
print(first)
h2.remove()
print(type(h2).__name__)
try:
    register_multi_grad_hook((a, b), lambda g: None, mode="some")
except Exception as e:
    print(type(e).__name__, e)
print(a.grad, b.grad, c.grad)
