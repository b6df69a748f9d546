# torch.linalg corner cases: singular and non-PD inputs, *_ex info, batches, complex
import torch
import torch.linalg as LA


def show(f):
    try:
        out = f()
        print(out)
    except Exception as e:
        print(type(e).__name__, "|", e)


sing = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
show(lambda: LA.inv(sing))
show(lambda: LA.inv(torch.stack([torch.eye(2), sing])))
show(lambda: LA.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
show(lambda: LA.cholesky(torch.stack([torch.eye(2), -torch.eye(2)])))
show(lambda: LA.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]])).info)
show(lambda: LA.inv_ex(sing).info)
show(lambda: LA.solve(sing, torch.ones(2)))
show(lambda: LA.solve_ex(torch.stack([torch.eye(2), sing]), torch.ones(2, 2)).info)
show(lambda: LA.det(torch.stack([sing, 2 * torch.eye(2)])))
show(lambda: LA.slogdet(sing))
show(lambda: LA.matrix_rank(sing))
show(lambda: LA.matrix_rank(torch.tensor([[1.0, 0.0], [0.0, 1e-10]]), atol=1e-8))
show(lambda: LA.pinv(sing))
show(lambda: LA.inv(torch.ones(2, 3)))
show(lambda: LA.solve(torch.eye(2), torch.ones(3)))
show(lambda: LA.det(torch.ones(3)))
show(lambda: LA.eigh(torch.tensor([[2.0, 1.0], [1.0, 2.0]]), UPLO="U").eigenvalues)
show(lambda: LA.norm(torch.tensor([[3.0, 4.0]]), ord="fro"))
show(lambda: LA.norm(torch.tensor([3.0, 4.0]), ord=float("inf")))
show(lambda: LA.matrix_norm(torch.tensor([[1.0, -2.0], [3.0, 4.0]]), ord=1))
show(lambda: LA.matrix_norm(torch.tensor([[1.0, -2.0], [3.0, 4.0]]), ord="nuc"))
show(lambda: LA.vector_norm(torch.tensor([[1.0, -2.0], [3.0, 4.0]]), ord=0, dim=1))
show(lambda: LA.cond(torch.tensor([[1.0, 0.0], [0.0, 1e-3]])))
show(lambda: LA.matrix_power(torch.tensor([[1.0, 1.0], [0.0, 1.0]]), -2))
show(lambda: LA.matrix_power(sing, -1))
show(lambda: LA.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0])))
show(lambda: LA.vecdot(torch.tensor([1 + 1j, 2j]), torch.tensor([1j, 1.0 + 0j])))
show(lambda: LA.multi_dot([torch.ones(2, 3), torch.ones(3), ]))
show(lambda: LA.householder_product(torch.eye(2), torch.tensor([0.0])).shape)
show(lambda: LA.lstsq(torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), torch.tensor([[1.0], [2.0], [3.0]])).solution)
show(lambda: LA.diagonal(torch.arange(9.0).reshape(3, 3), offset=1))
show(lambda: LA.vander(torch.tensor([1.0, 2.0, 3.0]), N=3))
