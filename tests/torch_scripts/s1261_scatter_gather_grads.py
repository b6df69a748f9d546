# gather and scatter/scatter_add with gradients; scatter_reduce amax/mean include_self
import torch

src = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
idx = torch.tensor([[2, 0], [1, 1]])
g = torch.gather(src, 1, idx)
print(g)
out = torch.zeros(2, 4).scatter_add(1, torch.tensor([[0, 1, 0], [3, 3, 2]]), src)
print(out)
s = torch.zeros(2, 4).scatter(1, torch.tensor([[0, 1, 2], [3, 2, 1]]), src)
print(s)
(g.sum() + (out * torch.arange(8.0).reshape(2, 4)).sum() + s.sum()).backward()
print(src.grad)
base = torch.tensor([10.0, 0.0, 0.0])
vals = torch.tensor([1.0, 5.0, 2.0, 7.0])
ix = torch.tensor([0, 0, 2, 2])
print(base.scatter_reduce(0, ix, vals, "amax"), base.scatter_reduce(0, ix, vals, "mean", include_self=False))
print(base.scatter_reduce(0, ix, vals, "sum"), base.scatter_reduce(0, ix, vals, "prod", include_self=False))
