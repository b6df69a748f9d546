# jacrev with chunk_size and jacfwd randomness argument, compared
import torch
from torch.func import jacrev, jacfwd

def f(x):
    return torch.cat([x.cumsum(0), (x ** 2).flip(0), x.prod().reshape(1)])

x = torch.tensor([1.0, 2.0, -3.0, 0.5])
J1 = jacrev(f)(x)
J2 = jacrev(f, chunk_size=1)(x)
J3 = jacrev(f, chunk_size=3)(x)
J4 = jacfwd(f)(x)
print(J1)
print(torch.equal(J1, J2), torch.equal(J1, J3), torch.allclose(J1, J4))
