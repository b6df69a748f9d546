# scatter_reduce's sum/mean/amax/amin/prod with include_self, forward and backward
import torch

idx = torch.tensor([0, 1, 0, 1, 2, 1])
src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
for reduce in ["sum", "mean", "amax", "amin", "prod"]:
    for include_self in [True, False]:
        inp = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        out = inp.scatter_reduce(0, idx, src, reduce=reduce, include_self=include_self)
        gi, gs = torch.autograd.grad((out * torch.arange(1.0, 5.0)).sum(), [inp, src])
        print(reduce, include_self, out.tolist(), gi.tolist(), gs.tolist())
ties = torch.tensor([2.0, 2.0, 1.0], requires_grad=True)
out = torch.zeros(1).scatter_reduce(0, torch.tensor([0, 0, 0]), ties, "amax", include_self=False)
out.backward()
print(out, ties.grad)
x2 = torch.zeros(2, 3)
print(x2.scatter_reduce(1, torch.tensor([[0, 0], [2, 1]]), torch.tensor([[5.0, 7.0], [1.0, 2.0]]), "mean"))
print(torch.scatter_reduce(torch.ones(3, dtype=torch.int64), 0, torch.tensor([0, 0]), torch.tensor([4, 6]), "mean"))
