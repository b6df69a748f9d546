import torch
from torch.utils.data import TensorDataset, DataLoader, random_split, Subset, ConcatDataset

X = torch.arange(20.0).reshape(10, 2)
y = torch.arange(10) % 3
ds = TensorDataset(X, y)
print(len(ds), ds[3])
a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(42))
print(len(a), len(b), type(a).__name__)
print(sorted(a.indices + b.indices) == list(range(10)))
parts = random_split(ds, [0.5, 0.3, 0.2])
print([len(p) for p in parts])
dl = DataLoader(ds, batch_size=4, shuffle=False)
for xb, yb in dl:
    print(xb.shape, yb)
print(len(dl))
dl2 = DataLoader(ds, batch_size=4, drop_last=True)
print(len(dl2), [b[0].shape[0] for b in dl2])
sub = Subset(ds, [9, 0, 5])
print([int(s[1]) for s in sub], sub[0][0])
cat = ConcatDataset([ds, sub])
print(len(cat), cat[11][0])
def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs).sum(0), list(ys)
for s, ys in DataLoader(sub, batch_size=2, collate_fn=collate):
    print(s, [int(v) for v in ys])
g = torch.Generator().manual_seed(0)
shuffled = [int(v) for _, yb in DataLoader(ds, batch_size=5, shuffle=True, generator=g) for v in yb]
print(sorted(shuffled) == sorted(y.tolist()), len(shuffled))
