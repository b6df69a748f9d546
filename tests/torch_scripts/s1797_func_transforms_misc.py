# torch.func: argnums tuples, has_aux, vmap in/out dims, chunk_size, jacfwd vs jacrev, hessian
import torch
from torch.func import grad, grad_and_value, hessian, jacfwd, jacrev, vjp, jvp, vmap


def f(x, y):
    return (x.sin() * y).sum(), x.detach().clone()


x = torch.tensor([0.1, 0.2, 0.3])
y = torch.tensor([1.0, 2.0, 3.0])
g, aux = grad(f, argnums=(0, 1), has_aux=True)(x, y)
print(g[0], g[1], aux)
(gx, val) = grad_and_value(lambda x: (x ** 3).sum())(x)
print(gx, val)


def h(x, y):
    return torch.stack([x[0] * y[1], x[1] ** 2 * y[0], (x * y).sum()])


for J in (jacrev(h, argnums=(0, 1)), jacfwd(h, argnums=(0, 1))):
    a, b = J(x, y)
    print(a, b)
print(jacrev(h, chunk_size=1)(x, y))
print(hessian(lambda x: (x.exp() * x).sum())(x))
print(vmap(lambda a, b: a @ b, in_dims=(0, None))(torch.ones(4, 2, 3), torch.ones(3)).shape)
print(vmap(lambda a: (a, a.sum()), out_dims=(1, 0))(torch.arange(6.0).reshape(2, 3))[0])
print(vmap(vmap(torch.dot))(torch.ones(2, 3, 4), torch.ones(2, 3, 4)))
print(vmap(lambda d: d["a"] * d["b"])({"a": torch.ones(3), "b": torch.arange(3.0)}))
print(vmap(torch.sum, in_dims=1)(torch.arange(6.0).reshape(2, 3)))
print(vmap(lambda t: t * 2, chunk_size=2)(torch.arange(5.0)))
out, fn = vjp(lambda t: t.exp(), x)
print(out, fn(torch.ones(3)))
print(jvp(lambda t: t ** 2, (x,), (torch.ones(3),)))
try:
    vmap(lambda t: t, in_dims=2)(torch.ones(2, 3))
except ValueError as e:
    print("ValueError", str(e)[:80])
try:
    grad(lambda t: t * 2)(x)
except RuntimeError as e:
    print("RuntimeError", e)
