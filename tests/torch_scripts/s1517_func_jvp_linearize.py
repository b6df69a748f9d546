# forward-mode: torch.func.jvp, linearize and jacfwd agree with the reverse-mode answer
import torch
from torch.func import jvp, linearize, jacfwd, jacrev


def f(x):
    return torch.stack([x[0] * x[1].sin(), x[0] ** 2 + x[1].exp(), x.norm()])


x = torch.tensor([0.7, -0.4])
v = torch.tensor([1.0, 2.0])
out, tang = jvp(f, (x,), (v,))
print(out, tang)
out2, lin = linearize(f, x)
print(torch.allclose(out, out2), lin(v), lin(torch.tensor([0.0, 1.0])))
J = jacfwd(f)(x)
print(J)
print(torch.allclose(J, jacrev(f)(x)))
o, t = jvp(lambda a, b: (a * b).sum(), (x, v), (torch.ones(2), torch.zeros(2)))
print(o, t)
o3, (t1, t2) = jvp(lambda a: (a.sin(), a.cos()), (x,), (v,))[0], jvp(
    lambda a: (a.sin(), a.cos()), (x,), (v,))[1]
print(t1, t2)
try:
    jvp(f, (x,), (torch.ones(3),))
except Exception as e:
    print(type(e).__name__, str(e)[:100])
