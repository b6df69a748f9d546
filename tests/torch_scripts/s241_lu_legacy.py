import warnings

import torch

warnings.simplefilter("ignore")
A = torch.tensor([[1.0, 2.0, 0.5], [3.0, 1.0, 2.0], [0.0, 4.0, 1.0]], requires_grad=True)
LU, pivots = torch.lu(A)
print(LU)
print(pivots)
P, L, U = torch.lu_unpack(LU, pivots)
print(torch.allclose(P @ L @ U, A))
b = torch.tensor([[1.0], [2.0], [3.0]])
x = torch.lu_solve(b, LU, pivots)
print(x)
x.sum().backward()
print(A.grad)
LU2, piv2, info = torch.lu(A.detach(), get_infos=True)
print(info, type(info).__name__, piv2.dtype)
print(A.detach().lu()[1])
