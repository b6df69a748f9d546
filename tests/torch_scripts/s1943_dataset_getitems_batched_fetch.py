# A dataset that fetches whole batches at once (__getitems__, as HF datasets and
# torchdata-backed code define it), a custom Sampler yielding index blocks, Subset and
# ConcatDataset over it, random_split lengths with fractions, and a DataLoader whose
# collate receives the already-batched list
import torch
from torch.utils.data import (ConcatDataset, DataLoader, Dataset, Sampler, Subset,
                              TensorDataset, random_split)


class Table(Dataset):
    def __init__(self, n, offset=0.0):
        self.x = torch.arange(n * 2, dtype=torch.float64).view(n, 2) + offset
        self.calls = []

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        self.calls.append(("item", i))
        return self.x[i], int(i % 2)

    def __getitems__(self, idxs):
        self.calls.append(("items", list(idxs)))
        return [(self.x[i], int(i % 2)) for i in idxs]


class Blocks(Sampler):
    def __init__(self, n, block):
        self.n, self.block = n, block

    def __iter__(self):
        starts = list(range(0, self.n, self.block))[::-1]
        for s in starts:
            yield from range(s, min(s + self.block, self.n))

    def __len__(self):
        return self.n


ds = Table(7)
loader = DataLoader(ds, batch_size=3, sampler=Blocks(7, 3))
for xb, yb in loader:
    print(xb[:, 0].tolist(), yb.tolist())
print(ds.calls)
sub = Subset(ds, [6, 0, 3])
print(len(sub), sub[1][0].tolist(), [y for _, y in sub])
cat = ConcatDataset([Table(2), Table(3, offset=100.0)])
print(len(cat), cat.cumulative_sizes, cat[3][0].tolist())
parts = random_split(TensorDataset(torch.arange(10.0)), [0.5, 0.3, 0.2],
                     generator=torch.Generator().manual_seed(0))
print([len(p) for p in parts], type(parts[0]).__name__)
dl = DataLoader(Table(5), batch_size=2, collate_fn=lambda b: (len(b), type(b).__name__))
print(list(dl))
