# hessian of a function of two inputs returns a 2x2 nested tuple of blocks
import torch
from torch.autograd.functional import hessian

def f(x, y):
    return (x ** 3).sum() * y.sum() + (x * y).sum() ** 2

x = torch.tensor([1.0, 2.0])
y = torch.tensor([0.5, -1.0])
H = hessian(f, (x, y))
for i in range(2):
    for j in range(2):
        print(i, j, H[i][j])
print(torch.allclose(H[0][1], H[1][0].T))
