import torch
from torch.func import vjp, jvp, linearize, vmap

def f(x):
    return torch.stack([x[0] * x[1], torch.sin(x[2]) + x[0] ** 2, x.sum()])

x = torch.tensor([1.0, 2.0, 0.5])
out, vjp_fn = vjp(f, x)
print(out.round(decimals=5))
(ct,) = vjp_fn(torch.tensor([1.0, 0.0, 0.0]))
print(ct)
rows = vmap(vjp_fn)(torch.eye(3))[0]
print(rows.round(decimals=5))
primal, tangent = jvp(f, (x,), (torch.tensor([0.0, 0.0, 1.0]),))
print(tangent.round(decimals=5))
cols = vmap(lambda v: jvp(f, (x,), (v,))[1])(torch.eye(3)).T
print(torch.allclose(rows, cols))
val, jvp_fn = linearize(f, x)
print(jvp_fn(torch.tensor([1.0, 1.0, 1.0])).round(decimals=5))

def g(a, b):
    return a * b.exp(), (a - b).sum()
(o1, o2), fn2 = vjp(g, torch.tensor([1.0, 2.0]), torch.tensor([0.0, 1.0]))
ga, gb = fn2((torch.ones(2), torch.tensor(2.0)))
print(o1.round(decimals=4), o2, ga.round(decimals=4), gb.round(decimals=4))
