# Rarely used Tensor methods: unfold, as_strided, renorm, diag_embed, diagflat, rot90, tril_indices, combinations, cartesian_prod
import torch

x = torch.arange(8.0)
print(x.unfold(0, 3, 2), x.as_strided((3, 2), (2, 1)), x.as_strided((2, 2), (1, 2), 1))
m = torch.tensor([[3.0, 4.0], [1.0, 0.0], [0.0, 10.0]])
print(m.renorm(p=2, dim=0, maxnorm=2.0))
print(torch.diag_embed(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), offset=1).shape, torch.diagflat(torch.tensor([1.0, 2.0]), offset=-1))
print(torch.rot90(torch.arange(6).view(2, 3), 1, [0, 1]), torch.rot90(torch.arange(6).view(2, 3), -1))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, offset=1))
print(torch.combinations(torch.tensor([1, 2, 3]), r=2), torch.combinations(torch.tensor([1, 2]), with_replacement=True))
print(torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4])))
print(x.view(2, 4).roll(shifts=(1, -1), dims=(0, 1)), torch.flipud(x.view(2, 4)), x.view(2, 4).fliplr())
print(torch.vsplit(torch.arange(12).view(4, 3), [1, 3])[1], torch.hsplit(torch.arange(12).view(3, 4), 2)[0], torch.dstack([torch.ones(2), torch.zeros(2)]).shape)
print(torch.column_stack([torch.tensor([1, 2]), torch.tensor([[3], [4]])]), torch.row_stack([torch.tensor([1, 2]), torch.tensor([3, 4])]) if hasattr(torch, "row_stack") else None)
print(torch.atleast_2d(torch.tensor(1.0)).shape, torch.atleast_3d(torch.ones(2)).shape, torch.swapaxes(torch.ones(2, 3, 4), 0, 2).shape, torch.moveaxis(torch.ones(2, 3, 4), 0, -1).shape)
y = torch.tensor([[3.0, 4.0], [1.0, 0.0]], requires_grad=True)
y.renorm(2, 0, 2.0).sum().backward()
print(y.grad)
