# histogramdd for 2-d data: bins per dim, explicit ranges, weights, density; the bin_edges
# tuple unpacked as people do for plotting
import torch

pts = torch.tensor([[0.1, 0.2], [0.4, 0.9], [0.8, 0.1], [0.85, 0.75], [0.5, 0.5]])
hist, edges = torch.histogramdd(pts, bins=[2, 3], range=[0.0, 1.0, 0.0, 1.0])
xe, ye = edges
print(hist, xe, ye, type(edges).__name__, len(edges))
r = torch.histogramdd(pts, bins=2, weight=torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]))
print(r.hist, r.bin_edges)
print(torch.histogramdd(pts, bins=[torch.tensor([0.0, 0.5, 1.0]), torch.tensor([0.0, 1.0])], density=True))
