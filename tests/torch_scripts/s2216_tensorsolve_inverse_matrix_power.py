import torch

A = torch.eye(6).reshape(2, 3, 6) + 0.1 * torch.arange(36.0).reshape(2, 3, 6) / 36
B = torch.arange(6.0).reshape(2, 3)
X = torch.linalg.tensorsolve(A.reshape(2, 3, 2, 3), B)
print(X.shape, X.round(decimals=5))
print(torch.allclose(torch.tensordot(A.reshape(2, 3, 2, 3), X, dims=2), B))
Ainv = torch.linalg.tensorinv(A.reshape(6, 2, 3), ind=1)
print(Ainv.shape)
print(torch.allclose(torch.tensordot(Ainv, A.reshape(6, 2, 3), dims=([1, 2], [0])) if False else torch.tensordot(A.reshape(6, 2, 3), Ainv, dims=2), torch.eye(6)))
M = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
print(torch.inverse(M), torch.linalg.inv(M).equal(torch.inverse(M)))
print(torch.linalg.matrix_power(M, 3), torch.linalg.matrix_power(M, 0))
print(torch.linalg.matrix_power(M, -2).round(decimals=6))
print(torch.matrix_power(torch.tensor([[1, 1], [1, 0]]), 10))
Mr = M.clone().requires_grad_()
torch.linalg.matrix_power(Mr, -1).sum().backward()
print(Mr.grad.round(decimals=6))
inv_ex, info = torch.linalg.inv_ex(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
print(info)
try:
    torch.linalg.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
print(torch.linalg.multi_dot([M, M.T, torch.tensor([1.0, -1.0])]))
print(torch.linalg.cond(M).round(decimals=6), torch.linalg.matrix_rank(torch.ones(3, 3)))
