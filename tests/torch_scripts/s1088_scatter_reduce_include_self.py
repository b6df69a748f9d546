# scatter_reduce with include_self False for sum/prod/mean/amax/amin, gradients, scatter with reduce=
import torch

src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
index = torch.tensor([0, 1, 0, 1, 2, 1])
base = torch.tensor([10.0, 20.0, 30.0, 40.0])
for r in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in (True, False):
        out = base.scatter_reduce(0, index, src, reduce=r, include_self=inc)
        g, = torch.autograd.grad(out.sum(), src)
        print(r, inc, out.tolist(), g.tolist())
print(torch.zeros(2, 3).scatter_(1, torch.tensor([[0, 1], [2, 2]]), 5.0, reduce="add"))
print(torch.ones(2, 3).scatter(1, torch.tensor([[0, 1], [2, 2]]), torch.full((2, 2), 3.0), reduce="multiply"))
print(torch.zeros(3).scatter_add(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0])))
