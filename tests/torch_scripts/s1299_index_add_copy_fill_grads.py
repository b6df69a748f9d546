# index_add / index_copy / index_fill / masked_fill with gradients
import torch

x = torch.ones(4, 2, requires_grad=True)
src = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
idx = torch.tensor([3, 0])
a = x.index_add(0, idx, src, alpha=2.0)
b = x.index_copy(0, idx, src)
c = x.index_fill(1, torch.tensor([1]), -1.0)
d = x.masked_fill(torch.tensor([[True, False]]), torch.tensor(5.0))
print(a, b, c, d, sep="\n")
w = torch.arange(8.0).reshape(4, 2)
((a + b + c + d) * w).sum().backward()
print(x.grad)
print(src.grad)
