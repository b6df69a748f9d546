# torch.utils.data building blocks: Subset, ConcatDataset, a map-style Dataset subclass,
# SequentialSampler, BatchSampler, DataLoader with a custom collate_fn and batch_sampler
import torch
from torch.utils.data import BatchSampler, ConcatDataset, DataLoader, Dataset, SequentialSampler, Subset, TensorDataset


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i}


a = Squares(5)
b = TensorDataset(torch.arange(3.0).view(3, 1) + 10, torch.tensor([0, 1, 0]))
print(len(a), a[2], b[1])
sub = Subset(a, [4, 0, 2])
print(len(sub), sub[0], sub.indices)
cat = ConcatDataset([a, Squares(2)])
print(len(cat), cat[5], cat[6], cat.cumulative_sizes)
print(list(SequentialSampler(a)), list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(7), 3, True)))
for batch in DataLoader(a, batch_size=2):
    print(batch)
def collate(items):
    xs = torch.cat([it["x"] for it in items])
    return xs, torch.tensor([it["y"] for it in items])
print(list(DataLoader(a, batch_sampler=[[0, 1], [4, 3, 2]], collate_fn=collate)))
print(next(iter(DataLoader(b, batch_size=3))), len(DataLoader(a, batch_size=2)), len(DataLoader(a, batch_size=2, drop_last=True)))
print(list(DataLoader([1, 2, 3, 4], batch_size=2)), list(DataLoader([(1, "a"), (2, "b")], batch_size=2)))
print(list(DataLoader(a, batch_size=None))[1])
