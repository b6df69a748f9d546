# Histograms: histc with min/max, histogram with bins count and explicit edges, density,
# weight; bucketize into bins and counting with bincount
import torch

x = torch.tensor([0.1, 0.4, 0.45, 0.8, 1.0, 1.5, -0.2])
print(torch.histc(x, bins=4, min=0, max=1), torch.histc(x, bins=3))
h = torch.histogram(x, bins=4, range=(0.0, 1.0))
print(h.hist, h.bin_edges, h)
print(torch.histogram(x, bins=torch.tensor([0.0, 0.5, 2.0])))
print(torch.histogram(x, bins=2, density=True).hist)
print(torch.histogram(x, bins=2, weight=torch.arange(7.0)).hist)
edges = torch.tensor([0.0, 0.5, 1.0])
ids = torch.bucketize(x, edges)
print(ids, torch.bincount(ids, minlength=4))
print(torch.histc(torch.tensor([1.0, 1.0, 1.0]), bins=3), torch.histc(torch.tensor([2, 3, 5]).float(), bins=3, min=2, max=5))
hd = torch.histogramdd(torch.tensor([[0.0, 0.0], [1.0, 1.0], [0.5, 0.2]]), bins=[2, 2])
print(hd.hist, hd.bin_edges)
