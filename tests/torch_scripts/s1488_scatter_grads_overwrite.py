# scatter (overwrite) gradients: the overwritten entries of self get no gradient
import torch

base = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
src = torch.tensor([[10.0, 20.0], [30.0, 40.0]], requires_grad=True)
out = base.scatter(1, torch.tensor([[0, 2], [1, 1]]), src)
print(out)
(out * torch.arange(6.0).reshape(2, 3)).sum().backward()
print(base.grad, src.grad)
print(torch.zeros(3).scatter(0, torch.tensor([0, 2]), 5.0), torch.zeros(2, 2).scatter_(1, torch.tensor([[1], [0]]), 1.0))
print(torch.zeros(4).scatter_add(0, torch.tensor([1, 1, 3]), torch.ones(3)))
