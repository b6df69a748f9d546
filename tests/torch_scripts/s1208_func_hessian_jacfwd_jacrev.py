# torch.func.hessian equals jacfwd(jacrev(f))
import torch
from torch.func import hessian, jacfwd, jacrev

def f(x):
    return (x.sin() * x.roll(1)).sum()

x = torch.tensor([0.5, 1.0, -0.5])
H = hessian(f)(x)
print(H)
print(torch.allclose(H, jacfwd(jacrev(f))(x)))
print(torch.allclose(H, H.T))
