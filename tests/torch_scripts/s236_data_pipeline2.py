import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, Subset, ConcatDataset, random_split, BatchSampler, SequentialSampler, RandomSampler, default_collate

class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i, "name": f"item{i}"}

ds = Squares(7)
dl = DataLoader(ds, batch_size=3)
for b in dl:
    print(b["x"].shape, b["y"], b["name"])
print(len(dl), len(DataLoader(ds, batch_size=3, drop_last=True)))
def collate(batch):
    xs = torch.cat([b["x"] for b in batch])
    return xs, torch.tensor([b["y"] for b in batch]).float()
for xs, ys in DataLoader(ds, batch_size=4, collate_fn=collate):
    print(xs, ys)
td = TensorDataset(torch.arange(10.0).reshape(5, 2), torch.tensor([0, 1, 0, 1, 1]))
print(len(td), td[2], td[1:3])
sub = Subset(td, [4, 0, 2])
print(len(sub), sub[0], [int(sub[i][1]) for i in range(len(sub))])
cat = ConcatDataset([td, sub])
print(len(cat), cat[6], cat.cumulative_sizes)
a, b = random_split(td, [3, 2], generator=torch.Generator().manual_seed(0))
print(len(a), len(b), sorted(a.indices + b.indices))
c, d, e = random_split(range(10), [0.5, 0.3, 0.2])
print(len(c), len(d), len(e))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)), list(BatchSampler(range(5), 2, True)))
print(sorted(RandomSampler(range(6))), len(list(RandomSampler(range(4), replacement=True, num_samples=9))))
print(default_collate([(1, 2.0), (3, 4.0)]), default_collate([torch.ones(2), torch.zeros(2)]))
print(default_collate([{"a": [1, 2]}, {"a": [3, 4]}]))
tl = DataLoader(td, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(1))
print([len(x) for x, y in tl], sum(int(y.sum()) for _, y in tl))
it = iter(DataLoader(td, batch_size=None))
print(next(it), next(it)[1].dtype)
