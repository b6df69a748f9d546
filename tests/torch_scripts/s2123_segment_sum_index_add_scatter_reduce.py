import torch

# graph pooling: node features summed / averaged / maxed per graph
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [4.0, 0.0], [-2.0, 1.0]], requires_grad=True)
batch = torch.tensor([0, 0, 1, 1, 1])
n_graphs = 2
summed = torch.zeros(n_graphs, 2).index_add(0, batch, x)
counts = torch.zeros(n_graphs).index_add_(0, batch, torch.ones(5))
mean = summed / counts[:, None]
idx = batch[:, None].expand(-1, 2)
mx = torch.zeros(n_graphs, 2).scatter_reduce(0, idx, x, reduce="amax", include_self=False)
mn = torch.full((n_graphs, 2), 100.0).scatter_reduce(0, idx, x, reduce="amin")
mean2 = torch.zeros(n_graphs, 2).scatter_reduce(0, idx, x, reduce="mean", include_self=False)
print(summed, counts, mean, sep="\n")
print(mx, mn, torch.allclose(mean, mean2), sep="\n")
(mean.sum() + mx.sum() * 2 + mn.sum() * 3).backward()
print(x.grad)
y = torch.zeros(3)
y.index_add_(0, torch.tensor([0, 2, 0]), torch.tensor([1.0, 2.0, 3.0]), alpha=-1)
print(y)
z = torch.ones(3).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), "prod")
print(z)
print(torch.zeros(2, dtype=torch.long).scatter_add(0, torch.tensor([1, 1, 0]), torch.tensor([5, 6, 7])))
