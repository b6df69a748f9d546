# scatter_reduce with sum/prod/mean/amax/amin and include_self, and gradients for the ones that have them
import torch

src = torch.tensor([1.0, 5.0, 2.0, 4.0, 3.0, 6.0])
idx = torch.tensor([0, 1, 0, 1, 2, 2])
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        base = torch.tensor([10.0, 0.5, -1.0, 7.0])
        print(red, inc, base.scatter_reduce(0, idx, src, reduce=red, include_self=inc))
s = src.clone().requires_grad_()
b = torch.tensor([2.0, 2.0, 2.0]).requires_grad_()
out = b.scatter_reduce(0, idx, s, reduce="amax", include_self=True)
(out * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(out, s.grad, b.grad)
s.grad = None
out = torch.zeros(3).scatter_reduce(0, idx, s, reduce="mean", include_self=False)
out.sum().backward()
print(out, s.grad)
s.grad = None
out = torch.ones(3).scatter_reduce(0, idx, s, reduce="prod")
out.sum().backward()
print(out, s.grad)
m = torch.zeros(2, 3)
print(m.scatter_add(1, torch.tensor([[0, 0, 2], [1, 1, 1]]), torch.ones(2, 3)))
print(m.scatter(1, torch.tensor([[2], [0]]), 7.5))
print(torch.zeros(3, 2).index_reduce_(0, torch.tensor([0, 2, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), "amax"))
