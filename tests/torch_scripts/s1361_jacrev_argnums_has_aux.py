# torch.func.jacrev with argnums tuple and has_aux
import torch
from torch.func import jacrev, jacfwd

def f(x, w):
    y = torch.tanh(w @ x)
    return y, {"norm": y.norm()}

x = torch.tensor([1.0, -1.0, 0.5])
w = torch.tensor([[0.1, 0.2, 0.3], [-0.5, 0.4, 0.0]])
(jx, jw), aux = jacrev(f, argnums=(0, 1), has_aux=True)(x, w)
print(jx)
print(jw.shape, jw[1])
print(aux["norm"])
jx2, aux2 = jacfwd(f, has_aux=True)(x, w)
print(torch.allclose(jx, jx2), aux2["norm"])
