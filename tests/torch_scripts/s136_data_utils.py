import torch
from torch.utils.data import TensorDataset, Subset, ConcatDataset, random_split, DataLoader, WeightedRandomSampler, BatchSampler, SequentialSampler, Dataset

X = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10) % 3
ds = TensorDataset(X, y)
print(len(ds), ds[3], ds[-1][1])
sub = Subset(ds, [0, 2, 4])
print(len(sub), sub[1], sub.indices)
cat = ConcatDataset([ds, sub])
print(len(cat), cat[10], cat[12], cat.cumulative_sizes)
train, val = random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), type(train).__name__, sorted(train.indices + val.indices) == list(range(10)))
a, b, c = random_split(range(10), [5, 3, 2])
print(len(a), len(b), len(c))
loader = DataLoader(ds, batch_size=4, shuffle=False, drop_last=False)
for xb, yb in loader:
    print(xb.shape, yb.tolist())
print(len(loader), len(DataLoader(ds, batch_size=4, drop_last=True)))
bs = BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)
print(list(bs), len(bs))
w = torch.tensor([0.1, 0.9, 0.0, 0.5])
sampler = WeightedRandomSampler(w, num_samples=6, replacement=True)
print(len(sampler), len(list(sampler)), all(i in (0, 1, 3) for i in sampler))
class Squares(Dataset):
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i): return {"x": torch.tensor([float(i)]), "y": i * i, "name": f"item{i}"}
dl = DataLoader(Squares(5), batch_size=2)
for batch in dl:
    print(batch["x"].shape, batch["y"], batch["name"])
dl2 = DataLoader(Squares(3), batch_size=None)
print([b["y"] for b in dl2])
dl3 = DataLoader(ds, batch_size=3, collate_fn=lambda items: torch.stack([it[0] for it in items]).sum(0))
print([t.tolist() for t in dl3])
print(next(iter(DataLoader(TensorDataset(torch.ones(4, 2)), batch_size=2)))[0].shape)
g = torch.Generator()
g.manual_seed(0)
perm_loader = DataLoader(ds, batch_size=5, shuffle=True, generator=g)
print(sorted(torch.cat([yb for _, yb in perm_loader]).tolist()), sum(len(b[0]) for b in perm_loader))
