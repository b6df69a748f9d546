# masked mean / max over a padded batch with boolean masks, and counting with sum(dtype=)
import torch

x = torch.tensor([[1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 0.0, 0.0], [6.0, 0.0, 0.0, 0.0]])
lengths = torch.tensor([3, 2, 1])
mask = torch.arange(4)[None, :] < lengths[:, None]
print(mask)
print((x * mask).sum(1) / mask.sum(1), mask.sum(1).dtype, mask.sum(1, dtype=torch.int32))
print(x.masked_fill(~mask, float("-inf")).max(dim=1))
print(x.masked_fill(~mask, float("-inf")).softmax(-1).round(decimals=4))
print(mask.any(dim=0), mask.all(dim=1), mask.float().mean(), mask.count_nonzero(dim=1))
print(x[mask].split(lengths.tolist()))
print(torch.nanmean(x.masked_fill(~mask, float("nan")), dim=1))
