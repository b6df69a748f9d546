# index_copy / index_reduce / aminmax results printed with their grad_fn, and their gradients
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
a = x.index_copy(0, torch.tensor([2, 0]), torch.tensor([[9.0, 9.0], [8.0, 8.0]]))
b = torch.ones(2, 2).index_reduce(0, torch.tensor([0, 0, 1]), x * 2, "prod")
mm = torch.aminmax(x, dim=1)
print(a)
print(b)
print(mm)
(a.sum() + b.sum() + mm.max.sum()).backward()
print(x.grad)
