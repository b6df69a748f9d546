import torch

edges = torch.tensor([[0, 1, 1, 2, 3, 3, 4], [1, 0, 2, 1, 4, 0, 3]])
x = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0], [0.5, 0.5]])
src, dst = edges
n = x.shape[0]
deg = torch.zeros(n).index_add_(0, dst, torch.ones(dst.numel()))
print(deg, torch.bincount(dst, minlength=n))
msg = x[src]
agg_sum = torch.zeros(n, 2).index_add_(0, dst, msg)
agg_mean = agg_sum / deg.clamp(min=1).unsqueeze(1)
print(agg_sum, agg_mean)
agg_max = torch.full((n, 2), float("-inf")).scatter_reduce(0, dst.unsqueeze(1).expand(-1, 2), msg, reduce="amax", include_self=True)
print(agg_max)
print(torch.zeros(n, 2).scatter_reduce(0, dst.unsqueeze(1).expand(-1, 2), msg, reduce="mean", include_self=False))
print(torch.ones(n, 2).scatter_reduce(0, dst.unsqueeze(1).expand(-1, 2), msg + 1, reduce="prod"))
print(torch.zeros(n, 2).scatter_add(0, dst.unsqueeze(1).repeat(1, 2), msg))
print(torch.zeros(3, 4).scatter(1, torch.tensor([[0], [2], [3]]), 5.0), torch.zeros(2, 3).scatter_(1, torch.tensor([[1, 2], [0, 0]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]), reduce="add"))
W = torch.tensor([[0.5, -0.2], [0.1, 0.9]], requires_grad=True)
h = x
for layer in range(2):
    m = (h @ W)[src]
    h = torch.tanh(torch.zeros(n, 2).index_add(0, dst, m) / deg.unsqueeze(1) + h)
loss = h.pow(2).sum()
loss.backward()
print(h.round(decimals=5), W.grad.round(decimals=5))
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.zeros(4).index_add(0, torch.tensor([0, 0, 3]), v, alpha=2.0)
out2 = torch.zeros(4).scatter_reduce(0, torch.tensor([1, 1, 2]), v, reduce="amax", include_self=False)
(out.sum() + (out2 * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum()).backward()
print(out, out2, v.grad)
print(torch.take(x, torch.tensor([0, 3, 9])), torch.take_along_dim(x, torch.tensor([[1], [0], [1], [0], [1]]), dim=1).squeeze())
g = torch.gather(x, 1, torch.tensor([[1, 0], [0, 0], [1, 1], [0, 1], [1, 0]]))
print(g, torch.index_select(x, 0, torch.tensor([4, 0])), x.index_fill(0, torch.tensor([1, 3]), -1.0)[:4])
print(torch.zeros(5).index_copy(0, torch.tensor([4, 0]), torch.tensor([9.0, 8.0])), torch.zeros(5).put_(torch.tensor([1, 1]), torch.tensor([1.0, 2.0]), accumulate=True))
