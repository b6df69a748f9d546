# torch.func.grad over closures and module state; argnums, nested grads, and errors
import torch
from torch.func import grad, grad_and_value, vmap

scale = torch.tensor(3.0)


def f(x, y):
    return (scale * x.sin() * y).sum()


x = torch.tensor([0.1, 0.2])
y = torch.tensor([1.0, 2.0])
print(grad(f)(x, y), grad(f, argnums=1)(x, y))
gx, gy = grad(f, argnums=(0, 1))(x, y)
print(gx, gy)
g, v = grad_and_value(f)(x, y)
print(g, v)
print(grad(grad(lambda t: t ** 4))(torch.tensor(2.0)))
print(vmap(grad(lambda t: (t ** 3).sum()))(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
try:
    grad(lambda t: t * 2)(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(str(e)[:110])
try:
    grad(f, argnums=2)(x, y)
except RuntimeError as e:
    print(str(e)[:110])
