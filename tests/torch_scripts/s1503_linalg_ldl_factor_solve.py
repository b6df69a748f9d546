# LDL^T factorisation of a symmetric matrix and solves with it
import torch

A = torch.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.5], [2.0, 0.5, 5.0]])
LD, pivots = torch.linalg.ldl_factor(A)
print(LD)
print(pivots, pivots.dtype)
B = torch.tensor([[1.0], [2.0], [3.0]])
X = torch.linalg.ldl_solve(LD, pivots, B)
print(X)
print(torch.allclose(A @ X, B))
r = torch.linalg.ldl_factor_ex(A)
print(type(r).__name__, r.info)
print(r.LD.shape, r.pivots.tolist(), len(r))
Ab = torch.stack([A, A + torch.eye(3)])
LDb, pb = torch.linalg.ldl_factor(Ab)
print(LDb.shape, pb.shape)
print(torch.linalg.ldl_solve(LDb, pb, torch.ones(2, 3, 1)).squeeze(-1))
