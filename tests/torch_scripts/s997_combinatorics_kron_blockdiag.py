# cartesian_prod, combinations (with_replacement), block_diag, kron, vander, tril/triu_indices, bincount, histc
import torch

print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))
print(torch.combinations(torch.tensor([1, 2, 3]), r=2))
print(torch.combinations(torch.tensor([1.0, 2.0]), r=2, with_replacement=True))
print(torch.block_diag(torch.ones(2, 2), torch.tensor([[5.0]]), torch.tensor([[1.0, 2.0]])))
print(torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.eye(2, dtype=torch.int64)))
print(torch.vander(torch.tensor([1, 2, 3]), N=4), torch.vander(torch.tensor([1.0, 2.0]), increasing=True))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, offset=1))
print(torch.bincount(torch.tensor([0, 1, 1, 3])), torch.bincount(torch.tensor([0, 2]), weights=torch.tensor([0.5, 1.5]), minlength=4))
print(torch.histc(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=4, min=0, max=4))
print(torch.cdist(torch.tensor([[0.0, 0.0], [1.0, 1.0]]), torch.tensor([[3.0, 4.0]])))
print(torch.cdist(torch.tensor([[0.0, 0.0]]), torch.tensor([[3.0, 4.0]]), p=1))
print(torch.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]), dim=0))
print(torch.outer(torch.tensor([1, 2]), torch.tensor([3, 4])), torch.inner(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(torch.rot90(torch.arange(4).view(2, 2), 1, [0, 1]), torch.flipud(torch.arange(4).view(2, 2)))
print(torch.diag_embed(torch.tensor([[1, 2], [3, 4]])).shape, torch.diagflat(torch.tensor([1, 2]), offset=1))
print(torch.atleast_2d(torch.tensor(1.0)).shape, torch.atleast_3d(torch.ones(2)).shape)
