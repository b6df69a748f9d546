# index_add_, index_copy_, index_fill_, index_reduce_ values and gradients
import torch

src = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
idx = torch.tensor([0, 2, 0])
out = torch.zeros(3, 2).index_add(0, idx, src, alpha=2.0)
print(out)
out.pow(2).sum().backward()
print(src.grad)
c = torch.zeros(4, 2).index_copy(0, torch.tensor([3, 1, 0]), src.detach())
print(c)
f = torch.arange(6.0).view(2, 3).index_fill(1, torch.tensor([0, 2]), -1.0)
print(f)
r = torch.ones(3, 2).index_reduce(0, idx, src.detach(), "prod")
print(r, torch.full((3, 2), 10.0).index_reduce(0, idx, src.detach(), "amax", include_self=False))
print(torch.ones(3, 2).index_reduce(0, idx, src.detach(), "mean"))
