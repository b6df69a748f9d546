# matrix_exp, matrix_power negative, cond, matrix_rank, multi_dot, vander, cross, vecdot, householder_product
import torch

A = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
print(torch.linalg.matrix_exp(A))
B = torch.tensor([[2.0, 1.0], [1.0, 3.0]])
print(torch.linalg.matrix_power(B, -2), torch.linalg.matrix_power(B, 0))
print(torch.linalg.cond(B), torch.linalg.cond(B, p="fro"), torch.linalg.matrix_rank(torch.ones(3, 3)))
print(torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(3, 4), torch.ones(4)]))
print(torch.linalg.vander(torch.tensor([1.0, 2.0, 3.0]), N=4))
print(torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])))
print(torch.linalg.vecdot(torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0, 4.0]])))
print(torch.linalg.vector_norm(torch.tensor([3, 4]), dtype=torch.float64) if False else torch.linalg.vector_norm(torch.tensor([3.0, 4.0]), ord=3))
print(torch.linalg.norm(torch.arange(4.0).view(2, 2), dim=(0, 1)), torch.linalg.norm(torch.tensor([3.0, 4.0]), ord=float("inf")))
print(torch.linalg.inv_ex(B).inverse, torch.linalg.eigvalsh(B), torch.linalg.tensorinv(torch.eye(4).view(4, 2, 2), ind=1).shape)
print(torch.linalg.diagonal(torch.arange(8.0).view(2, 2, 2)), torch.linalg.solve_triangular(torch.tensor([[2.0, 0.0], [1.0, 1.0]]), torch.ones(2, 1), upper=False))
