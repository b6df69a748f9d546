# batched Jacobians with vmap(jacrev) and batched Hessians with vmap(hessian)
import torch
from torch.func import vmap, jacrev, hessian

def f(x):
    return torch.stack([x[0] * x[1], x[0].sin(), x.pow(2).sum()])
X = torch.tensor([[1.0, 2.0], [0.0, -1.0], [0.5, 0.5]])
J = vmap(jacrev(f))(X)
print(J.shape)
print(J[1])
H = vmap(hessian(lambda x: (x ** 3).sum() + x[0] * x[1]))(X)
print(H)
print(vmap(jacrev(f), chunk_size=2)(X).equal(J))
