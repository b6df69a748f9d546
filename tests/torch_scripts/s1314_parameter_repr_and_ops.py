# Parameter repr, ops on parameters give tensors, Parameter(requires_grad=False)
import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(nn.Parameter(torch.tensor([1, 2]), requires_grad=False)))
q = p * 2
print(type(q).__name__, type(p).__name__, isinstance(p, torch.Tensor))
print(type(p.data).__name__, type(p.detach()).__name__, type(p.clone()).__name__)
print(nn.Parameter(torch.zeros(2, 2), requires_grad=False))
print(p.grad, p.is_leaf, p.requires_grad)
