# hooks on leaves run before accumulation; retain_grad on a non-leaf, and hooks order
import torch

log = []
w = torch.tensor([1.0, -1.0], requires_grad=True)
w.register_hook(lambda g: log.append(("first", g.tolist())))
w.register_hook(lambda g: g + 1)
w.register_hook(lambda g: log.append(("third", g.tolist())))
y = w * 3
y.retain_grad()
(y ** 2).sum().backward()
print(log)
print(w.grad, y.grad, y.is_leaf, y.retains_grad)
