import torch
from torch.func import functionalize, grad


def step(buf, upd):
    buf.add_(upd)
    buf.mul_(0.5)
    return buf.sum()


b = torch.zeros(3)
f = functionalize(step)
print(f(b, torch.ones(3)), b)
print(f(b, torch.tensor([2.0, 0.0, -2.0])), b)


def energy(w):
    v = w.clone()
    v.mul_(w)
    return v.sum()


print(grad(functionalize(energy))(torch.tensor([1.0, -2.0, 3.0])))
g = functionalize(lambda t: t * 2, remove="mutations_and_views")
print(g(torch.arange(3.0)))
try:
    functionalize(step, remove="everything")
except RuntimeError as e:
    print(str(e).splitlines()[0])
