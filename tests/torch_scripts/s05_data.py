import torch
from torch.utils.data import TensorDataset, DataLoader, random_split, Dataset, Subset, ConcatDataset

X = torch.arange(20, dtype=torch.float32).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(X, y)
print(len(ds), ds[3])
dl = DataLoader(ds, batch_size=4, shuffle=False)
for xb, yb in dl:
    print(xb.shape, yb.tolist())
print(len(dl))
dl = DataLoader(ds, batch_size=4, drop_last=True)
print(len(dl), [b[1].tolist() for b in dl])
train, val = random_split(ds, [8, 2], generator=torch.Generator().manual_seed(42))
print(len(train), len(val), type(train).__name__)
tr, va = random_split(range(10), [0.7, 0.3])
print(len(tr), len(va))
class Squares(Dataset):
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i): return {'x': torch.tensor([float(i)]), 'y': i * i}
dl = DataLoader(Squares(5), batch_size=2)
for b in dl:
    print(b['x'].shape, b['y'])
sub = Subset(ds, [0, 2, 4])
print(len(sub), sub[1][1])
cat = ConcatDataset([ds, ds])
print(len(cat), cat[12][1])
def collate(batch):
    xs, ys = zip(*batch)
    return torch.stack(xs), torch.tensor(ys)
dl = DataLoader(ds, batch_size=3, collate_fn=collate)
print(next(iter(dl))[1])
g = torch.Generator(); g.manual_seed(0)
dl = DataLoader(ds, batch_size=5, shuffle=True, generator=g)
print(sorted(sum([b[1].tolist() for b in dl], [])))
