# torch.func jacfwd vs jacrev, hessian as jacfwd(jacrev), argnums tuples
import torch
from torch.func import jacfwd, jacrev, hessian, grad, vmap

def f(x, y):
    return torch.stack([x[0] * y.sum(), torch.sin(x).sum() * y[1], (x * x).sum()])

x = torch.tensor([0.3, -0.7])
y = torch.tensor([1.0, 2.0, 3.0])
print(jacrev(f)(x, y))
print(jacfwd(f, argnums=1)(x, y))
jx, jy = jacrev(f, argnums=(0, 1))(x, y)
print(jx.shape, jy.shape)
g = lambda v: (v ** 3).sum() + v[0] * v[1]
print(hessian(g)(x))
print(jacfwd(jacrev(g))(x))
print(vmap(grad(g))(torch.tensor([[1.0, 2.0], [0.5, -1.0]])))
print(jacrev(lambda v: v.sin(), has_aux=False)(x))
