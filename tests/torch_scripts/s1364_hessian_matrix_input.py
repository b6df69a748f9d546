# torch.func.hessian and autograd.functional.hessian of a function of a matrix
import torch
from torch.func import hessian

def f(A):
    return (A @ A.T).trace() + A.det()

A = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
H = hessian(f)(A)
print(H.shape)
print(H.reshape(4, 4))
H2 = torch.autograd.functional.hessian(f, A)
print(torch.allclose(H, H2))
def g(x, y):
    return (x ** 2 * y).sum() + (x * y ** 3).sum()
Hs = torch.autograd.functional.hessian(g, (torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0])))
for row in Hs:
    print([h.tolist() for h in row])
