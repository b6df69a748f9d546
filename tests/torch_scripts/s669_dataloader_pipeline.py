import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, Subset, ConcatDataset, random_split, SequentialSampler, BatchSampler, default_collate


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i, "name": f"item{i}"}


ds = Squares(7)
dl = DataLoader(ds, batch_size=3, shuffle=False)
for batch in dl:
    print(batch["x"].shape, batch["y"], batch["name"])
print(len(dl), len(DataLoader(ds, batch_size=3, drop_last=True)))
td = TensorDataset(torch.arange(6.0).reshape(3, 2), torch.tensor([0, 1, 0]))
print(td[1], len(td))
cat = ConcatDataset([td, td])
print(len(cat), cat[4])
sub = Subset(ds, [6, 0])
print([s["y"] for s in sub])
g = torch.Generator().manual_seed(0)
a, b = random_split(range(10), [0.7, 0.3], generator=g)
print(len(a), len(b), sorted(list(a) + list(b)) == list(range(10)))
print(list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False)))


def collate(batch):
    xs = torch.stack([b[0] for b in batch])
    return xs.sum(), len(batch)


print(list(DataLoader(td, batch_size=2, collate_fn=collate)))
print(default_collate([(1, 2.0), (3, 4.0)]))
print(default_collate([torch.ones(2), torch.zeros(2)]))
print(next(iter(DataLoader(td, batch_size=None))))
