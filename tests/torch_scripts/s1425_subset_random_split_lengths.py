# Subset, ConcatDataset, random_split lengths (sizes only: the permutation is random)
import torch
from torch.utils.data import TensorDataset, Subset, ConcatDataset, random_split

ds = TensorDataset(torch.arange(10.0), torch.arange(10))
sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[2])
cat = ConcatDataset([sub, ds])
print(len(cat), cat[3], cat[-1])
a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(0))
print(len(a), len(b), sorted(a.indices + b.indices) == list(range(10)))
p, q, r = random_split(ds, [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))
print(len(p), len(q), len(r))
