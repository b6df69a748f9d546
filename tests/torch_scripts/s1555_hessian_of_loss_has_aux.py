# torch.func: hessian of a model loss, jacrev with argnums tuple, grad with has_aux
import torch
from torch.func import hessian, jacrev, grad, jacfwd

X = torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
y = torch.tensor([1.0, 0.0, 2.0])


def loss(w, b):
    return ((X @ w + b - y) ** 2).mean()


w = torch.tensor([0.1, -0.2])
b = torch.tensor(0.3)
H = hessian(loss)(w, b)
print(H)
print(torch.allclose(H, 2 * X.T @ X / 3))
Hw_b = hessian(loss, argnums=(0, 1))(w, b)
print(type(Hw_b).__name__, Hw_b[0][1], Hw_b[1][1])
Jw, Jb = jacrev(lambda w, b: X @ w + b, argnums=(0, 1))(w, b)
print(Jw, Jb)


def with_aux(w):
    r = X @ w - y
    return (r ** 2).sum(), {"resid": r}


g, aux = grad(with_aux, has_aux=True)(w)
print(g, aux["resid"])
print(jacfwd(jacrev(lambda t: (t ** 3).sum()))(w))
