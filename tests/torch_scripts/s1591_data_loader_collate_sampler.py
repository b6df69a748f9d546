# DataLoader: default collate of dicts/tuples, drop_last, samplers, TensorDataset slicing
import torch
from torch.utils.data import DataLoader, TensorDataset, Dataset, SequentialSampler
from torch.utils.data import BatchSampler, Subset, random_split, ConcatDataset


class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i), i * 2.0]), "y": i % 2, "name": f"item{i}"}


dl = DataLoader(Pairs(), batch_size=2, drop_last=False)
for b in dl:
    print(b["x"].tolist(), b["y"], b["name"])
print(len(dl), len(DataLoader(Pairs(), batch_size=2, drop_last=True)))
ds = TensorDataset(torch.arange(6.0).reshape(3, 2), torch.tensor([0, 1, 0]))
print(ds[1], len(ds), ds[0:2][0].shape)
print(list(BatchSampler(SequentialSampler(range(5)), 2, drop_last=True)))
sub = Subset(ds, [2, 0])
print([s[1].item() for s in sub])
a, b = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(0))
print(len(a), len(b))
cat = ConcatDataset([ds, ds])
print(len(cat), cat[4][0])
dl2 = DataLoader(ds, batch_size=2, collate_fn=lambda items: [t[1] for t in items])
print(list(dl2))
