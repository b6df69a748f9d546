# torch.utils.data: random_split lengths and fractions, Subset, ConcatDataset, samplers, len
import torch
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, RandomSampler,
                              SequentialSampler, Subset, TensorDataset, WeightedRandomSampler,
                              random_split)

ds = TensorDataset(torch.arange(10.0), torch.arange(10) % 3)
print(len(ds), ds[3], ds[-1])
g = torch.Generator().manual_seed(0)
parts = random_split(ds, [0.7, 0.3], generator=g)
print([len(p) for p in parts], type(parts[0]).__name__)
parts = random_split(range(10), [0.34, 0.33, 0.33], generator=torch.Generator().manual_seed(1))
print([len(p) for p in parts])
try:
    random_split(ds, [3, 3])
except ValueError as e:
    print("ValueError", e)
sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[1], sub.indices)
cat = ConcatDataset([ds, sub])
print(len(cat), cat[10], cat[-1], cat.cumulative_sizes)
print(list(SequentialSampler(range(4))), len(RandomSampler(range(5), num_samples=3, replacement=True)))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(7), batch_size=3, drop_last=True)), len(BatchSampler(range(7), 3, True)))
print(len(WeightedRandomSampler([0.1, 0.9], num_samples=5)))
dl = DataLoader(ds, batch_size=4, drop_last=True)
print(len(dl), [b[0].tolist() for b in dl])
dl = DataLoader(ds, batch_size=4, shuffle=False, collate_fn=lambda b: len(b))
print(list(dl))
dl = DataLoader(ds, batch_sampler=BatchSampler(range(10), 5, False))
print([b[1].tolist() for b in dl])
try:
    TensorDataset(torch.ones(3), torch.ones(4))
except (AssertionError, ValueError) as e:
    print(type(e).__name__, str(e)[:29])  # (tapegrad names the sizes after)
try:
    DataLoader(ds, batch_size=2, batch_sampler=BatchSampler(range(10), 5, False))
except ValueError as e:
    print("ValueError", e)
try:
    DataLoader(ds, shuffle=True, sampler=SequentialSampler(ds))
except ValueError as e:
    print("ValueError", e)
