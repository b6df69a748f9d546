# scatter_reduce with include_self=False for group max/mean, index_reduce, scatter_add for
# histograms, and the segment mean trick with bincount
import torch

src = torch.tensor([5.0, 1.0, 7.0, 3.0, 2.0, 8.0])
grp = torch.tensor([0, 1, 0, 2, 1, 0])
base = torch.full((4,), -1.0)
for how in ["sum", "prod", "mean", "amax", "amin"]:
    print(how, base.scatter_reduce(0, grp, src, reduce=how),
          base.scatter_reduce(0, grp, src, reduce=how, include_self=False))
counts = torch.bincount(grp, minlength=4)
sums = torch.zeros(4).scatter_add(0, grp, src)
print(counts, sums, sums / counts.clamp(min=1))
print(torch.bincount(grp, weights=src), torch.bincount(torch.tensor([], dtype=torch.long), minlength=2))
t = torch.ones(3, 2)
print(t.index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]), "prod"))
print(t.index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([[2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]), "mean", include_self=False))
print(t.index_reduce(0, torch.tensor([1, 1, 1]), torch.tensor([[2.0, 3.0], [4.0, 1.0], [6.0, 0.0]]), "amax"))
x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
out = torch.zeros(3).scatter_reduce(0, torch.tensor([0, 1, 0, 1, 2, 2]), x, reduce="sum")
(out * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(out, x.grad)
x.grad = None
out = torch.zeros(3).scatter_reduce(0, torch.tensor([0, 1, 0, 1, 2, 2]), x, reduce="amax", include_self=False)
out.sum().backward()
print(out, x.grad)
two = torch.zeros(2, 3).scatter_reduce(1, torch.tensor([[0, 0, 2], [1, 1, 1]]), torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), "mean")
print(two)
