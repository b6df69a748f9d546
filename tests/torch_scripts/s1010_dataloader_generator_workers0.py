# DataLoader options that do not change values: pin_memory False, persistent workers off, prefetch, sampler with shuffle=False, len/iteration counts
import torch
from torch.utils.data import DataLoader, TensorDataset, RandomSampler, SequentialSampler, IterableDataset, get_worker_info

ds = TensorDataset(torch.arange(10.0).view(5, 2), torch.tensor([0, 1, 0, 1, 1]))
dl = DataLoader(ds, batch_size=2, shuffle=False, num_workers=0, pin_memory=False, drop_last=False)
print(len(dl), dl.batch_size, type(dl.sampler).__name__, dl.drop_last)
for xb, yb in dl:
    print(xb.tolist(), yb.tolist())
print(type(DataLoader(ds, shuffle=True).sampler).__name__)
print(len(list(DataLoader(ds, batch_size=None))), next(iter(DataLoader(ds, batch_size=None)))[0])
class Count(IterableDataset):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        print("worker info", get_worker_info())
        return iter(range(self.n))
print([b.tolist() for b in DataLoader(Count(5), batch_size=2)])
g = torch.Generator().manual_seed(0)
perm = list(RandomSampler(range(6), generator=g))
print(sorted(perm), len(perm))
print(len(RandomSampler(range(6), replacement=True, num_samples=10)))
print(list(SequentialSampler(["a", "b", "c"])))
print(next(iter(DataLoader([{"a": 1, "b": [1.0, 2.0]}, {"a": 2, "b": [3.0, 4.0]}], batch_size=2))))
