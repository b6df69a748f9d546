# torch.utils.data: TensorDataset, Subset, ConcatDataset, DataLoader with collate_fn and drop_last, default_collate of dicts
import torch
from torch.utils.data import TensorDataset, Subset, ConcatDataset, DataLoader, Dataset, default_collate

X = torch.arange(20.0).view(10, 2)
y = torch.arange(10)
ds = TensorDataset(X, y)
print(len(ds), ds[3])
sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[2], sub.indices)
cat = ConcatDataset([sub, ds])
print(len(cat), cat[3], cat.cumulative_sizes)
dl = DataLoader(ds, batch_size=4, drop_last=True)
print([b[0].shape for b in dl], len(dl))
class D(Dataset):
    def __len__(self):
        return 3
    def __getitem__(self, i):
        return {"x": torch.tensor([i, i + 1.0]), "label": i, "name": f"s{i}"}
batch = next(iter(DataLoader(D(), batch_size=3)))
print(batch)
print(default_collate([(torch.tensor(1), 2.5), (torch.tensor(3), 4.5)]))
dl2 = DataLoader(ds, batch_size=3, collate_fn=lambda items: torch.stack([a for a, _ in items]).sum(0))
print(list(dl2))
print(DataLoader(ds, batch_size=None)._auto_collation if hasattr(DataLoader(ds), "_auto_collation") else None, next(iter(DataLoader(ds, batch_size=None))))
