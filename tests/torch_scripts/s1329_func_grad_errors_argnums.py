# torch.func.grad: non-scalar output error, argnums tuple, kwargs are not differentiated
import torch
from torch.func import grad, jacrev, hessian

def f(x, y, scale=1.0):
    return ((x * y) ** 2).sum() * scale

x = torch.tensor([1.0, 2.0])
y = torch.tensor([3.0, -1.0])
print(grad(f)(x, y, scale=2.0))
gx, gy = grad(f, argnums=(0, 1))(x, y)
print(gx, gy)
try:
    grad(lambda t: t * 2)(x)
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
H = hessian(f, argnums=1)(x, y)
print(H)
J = jacrev(lambda a, b: a * b, argnums=(0, 1))(x, y)
print(type(J).__name__, J[0], J[1])
