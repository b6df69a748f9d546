# torch.func.vjp with multiple outputs and has_aux; autograd.functional.vjp
import torch
from torch.func import vjp

def f(x, y):
    return x * y, (x + y).sin()

x = torch.tensor([1.0, 2.0])
y = torch.tensor([0.5, -1.0])
outs, fn = vjp(f, x, y)
print(outs)
gx, gy = fn((torch.ones(2), torch.tensor([1.0, 2.0])))
print(gx, gy)
def g(x):
    return x.exp(), x.sum()
o, fn2, aux = vjp(g, x, has_aux=True)
print(o, aux, fn2(torch.tensor([1.0, -1.0])))
print(torch.autograd.functional.vjp(lambda t: t ** 2, x, torch.tensor([1.0, 3.0])))
