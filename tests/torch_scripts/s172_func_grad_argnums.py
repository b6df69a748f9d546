import torch
from torch.func import grad, grad_and_value, jvp, linearize, vjp


def f(x, y):
    return (x.sin() * y).sum() + (x ** 2).sum() * y.sum()


x = torch.tensor([0.5, 1.0, -1.0])
y = torch.tensor([2.0, 0.5, 1.0])
gx, gy = grad(f, argnums=(0, 1))(x, y)
print(gx, gy)


def loss_aux(w):
    r = w.exp()
    return r.sum(), {"norm": r.norm()}


g, aux = grad(loss_aux, has_aux=True)(x)
print(g, aux)
(gv, v) = grad_and_value(f)(x, y)
print(gv, v)
out, tangent = jvp(lambda t: t.cos() * t, (x,), (torch.ones(3),))
print(out, tangent)
val, jvp_fn = linearize(lambda t: t.exp().cumsum(0), x)
print(val, jvp_fn(torch.tensor([1.0, 0.0, 0.0])))
o, vjp_fn = vjp(lambda a, b: a * b + a, x, y)
print(o, vjp_fn(torch.ones(3)))
d2 = grad(grad(lambda s: torch.sin(s) * s))(torch.tensor(1.0))
print(d2)
