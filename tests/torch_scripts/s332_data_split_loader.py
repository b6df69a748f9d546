import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split, Subset, ConcatDataset, SequentialSampler, BatchSampler, default_collate


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i), float(i) ** 2]), "y": i % 2}


ds = Squares(10)
print(len(ds), ds[3])
g = torch.Generator().manual_seed(42)
tr, va = random_split(ds, [0.7, 0.3], generator=g)
print(len(tr), len(va), type(tr).__name__)
tr2, va2 = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print(sorted(tr.indices) == sorted(tr2.indices))
loader = DataLoader(Subset(ds, [0, 2, 4, 6, 8]), batch_size=2, shuffle=False, drop_last=False)
for batch in loader:
    print(batch["x"].shape, batch["y"])
print(len(loader))
td = TensorDataset(torch.arange(6.0).view(3, 2), torch.tensor([0, 1, 0]))
cat = ConcatDataset([td, td])
print(len(cat), cat[4], cat.cumulative_sizes)
bs = BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True)
print(list(bs))
l2 = DataLoader(cat, batch_sampler=BatchSampler(SequentialSampler(cat), 4, False))
print([b[0].shape for b in l2])


def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs).sum(0), torch.tensor(ys)


l3 = DataLoader(td, batch_size=3, collate_fn=collate)
print(next(iter(l3)))
print(default_collate([(1, 2.0), (3, 4.0)]))
print(default_collate([{"a": torch.ones(2)}, {"a": torch.zeros(2)}]))
l4 = DataLoader(td, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(0))
print(sum(b[0].shape[0] for b in l4), len(l4))
try:
    random_split(ds, [5, 6])
except ValueError as e:
    print("ValueError:", e)
