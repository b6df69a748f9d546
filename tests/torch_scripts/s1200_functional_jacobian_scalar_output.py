# Jacobian shapes: scalar output, scalar input, matrix input
import torch
from torch.autograd.functional import jacobian

print(jacobian(lambda x: (x ** 2).sum(), torch.tensor([1.0, 2.0])))
print(jacobian(lambda x: x * torch.tensor([1.0, 2.0, 3.0]), torch.tensor(2.0)))
J = jacobian(lambda m: m @ m, torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(J.shape)
print(J[0, 1])
print(jacobian(lambda x: x.sum(0), torch.ones(2, 3)).shape)
