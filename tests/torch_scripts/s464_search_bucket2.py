import torch

edges = torch.tensor([0.0, 1.0, 2.5, 4.0])
vals = torch.tensor([-1.0, 0.0, 0.5, 1.0, 2.5, 3.9, 4.0, 9.0])
print(torch.bucketize(vals, edges), torch.bucketize(vals, edges, right=True))
print(torch.searchsorted(edges, vals), torch.searchsorted(edges, vals, side="right"), torch.searchsorted(edges, vals, out_int32=True).dtype)
unsorted = torch.tensor([4.0, 0.0, 2.5, 1.0])
sorter = torch.argsort(unsorted)
print(torch.searchsorted(unsorted, torch.tensor([1.5, 3.0]), sorter=sorter))
rows = torch.tensor([[0.0, 1.0, 2.0], [10.0, 20.0, 30.0]])
print(torch.searchsorted(rows, torch.tensor([[1.5], [25.0]])), torch.searchsorted(rows, torch.tensor([[0.5, 2.5], [5.0, 35.0]])))
print(torch.searchsorted(edges, 2.5), torch.bucketize(torch.tensor(3.0), edges))
cdf = torch.cumsum(torch.tensor([0.1, 0.2, 0.3, 0.4]), 0)
u = torch.tensor([0.05, 0.15, 0.31, 0.99])
print(cdf, torch.searchsorted(cdf, u))
x = torch.tensor([0.2, 1.7, 3.3], requires_grad=True)
idx = torch.bucketize(x.detach(), edges) - 1
lo, hi = edges[idx], edges[idx + 1]
frac = (x - lo) / (hi - lo)
ys = torch.tensor([0.0, 10.0, 20.0, 40.0])
interp = ys[idx] + frac * (ys[idx + 1] - ys[idx])
interp.sum().backward()
print(idx, interp.detach().round(decimals=4), x.grad.round(decimals=4))
try:
    torch.searchsorted(edges, vals, side="left", right=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.histc(vals, bins=4, min=0, max=4), torch.histogram(vals, bins=edges).hist)
print(torch.bucketize(torch.tensor([1, 5]), torch.tensor([2, 4, 6])))
