# histc, histogram with weights/density, bucketize right=, searchsorted side/sorter
import torch

x = torch.tensor([0.1, 0.5, 0.5, 2.0, 3.9, -1.0])
print(torch.histc(x, bins=4, min=0, max=4))
h = torch.histogram(x, bins=3, range=(0.0, 3.0))
print(h.hist, h.bin_edges)
h2 = torch.histogram(x, bins=torch.tensor([-1.0, 0.0, 1.0, 4.0]), weight=torch.ones(6) * 2, density=True)
print(h2)
b = torch.tensor([0.0, 0.5, 2.0])
print(torch.bucketize(x, b), torch.bucketize(x, b, right=True), torch.bucketize(x, b, out_int32=True).dtype)
s = torch.tensor([[1, 3, 5, 7], [2, 4, 6, 8]])
print(torch.searchsorted(s, torch.tensor([[3, 6], [1, 9]])), torch.searchsorted(s, torch.tensor([[3, 6], [1, 9]]), side="right"))
uns = torch.tensor([5.0, 1.0, 3.0])
print(torch.searchsorted(uns, torch.tensor([2.0, 4.0]), sorter=torch.argsort(uns)))
print(torch.histogramdd(torch.tensor([[0.0, 0.0], [1.0, 1.0], [0.5, 0.2]]), bins=[2, 2]).hist)
