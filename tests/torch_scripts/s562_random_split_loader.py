import torch
from torch.utils.data import TensorDataset, DataLoader, random_split, Subset, ConcatDataset

X = torch.arange(40, dtype=torch.float64).reshape(20, 2)
y = torch.arange(20) % 3
ds = TensorDataset(X, y)
print(len(ds), ds[3], type(ds.tensors))
g = torch.Generator().manual_seed(42)
train, val, test = random_split(ds, [0.6, 0.25, 0.15], generator=g)
print(len(train), len(val), len(test), type(train).__name__)
all_idx = sorted(train.indices + val.indices + test.indices)
print(all_idx == list(range(20)))
g1 = torch.Generator().manual_seed(7)
g2 = torch.Generator().manual_seed(7)
a, _ = random_split(range(10), [5, 5], generator=g1)
b, _ = random_split(range(10), [5, 5], generator=g2)
print(list(a) == list(b), sorted(list(a)) == sorted(a.indices))
loader = DataLoader(ds, batch_size=6, shuffle=False, drop_last=False)
print(len(loader), [xb.shape[0] for xb, _ in loader])
print(len(DataLoader(ds, batch_size=6, drop_last=True)))
xb, yb = next(iter(loader))
print(xb.dtype, yb.dtype, yb.tolist())
sub = Subset(ds, [0, 5, 10])
print(len(sub), sub[1][0], sub[2][1])
cat = ConcatDataset([sub, Subset(ds, [19])])
print(len(cat), cat[3][0], cat.cumulative_sizes)
gl = torch.Generator().manual_seed(0)
sh1 = [yb.tolist() for _, yb in DataLoader(ds, batch_size=5, shuffle=True, generator=gl)]
gl.manual_seed(0)
sh2 = [yb.tolist() for _, yb in DataLoader(ds, batch_size=5, shuffle=True, generator=gl)]
print(sh1 == sh2, sorted(sum(sh1, [])) == sorted(y.tolist()))
try:
    random_split(ds, [10, 5])
except ValueError as e:
    print("ValueError", e)
try:
    TensorDataset(X, y[:5])
except AssertionError as e:
    print("AssertionError", str(e)[:29])
