import torch

src = torch.tensor([2.0, 3.0, 0.5, 4.0, 1.5, 2.5], requires_grad=True)
index = torch.tensor([0, 1, 0, 2, 1, 2])
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        base = torch.tensor([1.0, 2.0, 10.0])
        out = base.scatter_reduce(0, index, src, reduce=reduce, include_self=include_self)
        g, = torch.autograd.grad(out.sum(), src)
        print(reduce, include_self, out.detach().tolist(), g.tolist())
ties = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
o = torch.zeros(1).scatter_reduce(0, torch.tensor([0, 0, 0]), ties, "amax", include_self=False)
o.backward()
print(o.detach(), ties.grad)
m2 = torch.zeros(2, 2).scatter_reduce(1, torch.tensor([[0, 0, 1], [1, 1, 1]]), torch.tensor([[1.0, 5.0, 2.0], [3.0, 4.0, 7.0]]), "amax", include_self=False)
print(m2)
