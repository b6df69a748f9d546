# pinv of rank-deficient matrices (atol/rtol/hermitian), matrix_rank tolerances, lstsq driver on tall systems
import torch

A = torch.tensor([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])
print(torch.linalg.pinv(A))
print(torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(A, atol=1.0, rtol=0.0), torch.linalg.matrix_rank(torch.eye(3) * torch.tensor([1.0, 1e-9, 0.0])))
S = torch.tensor([[2.0, 1.0], [1.0, 2.0]])
print(torch.linalg.pinv(S, hermitian=True), torch.linalg.pinv(torch.diag(torch.tensor([1.0, 1e-12])), rtol=1e-6))
B = torch.tensor([[1.0], [2.0], [2.5]])
sol = torch.linalg.lstsq(A[:, :1], B)
print(sol.solution, sol.residuals, sol.rank, sol.singular_values)
print(torch.linalg.lstsq(torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), B, driver="gelsd"))
X = torch.tensor([[2.0, 0.0], [0.0, 3.0], [1.0, 1.0]], requires_grad=True)
torch.linalg.pinv(X).sum().backward()
print(X.grad)
