import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split, Subset, ConcatDataset


class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.arange(n, dtype=torch.float64)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": self.x[i], "y": self.x[i] ** 2, "id": i}


ds = Squares(10)
dl = DataLoader(ds, batch_size=4, shuffle=False, drop_last=False)
for b in dl:
    print(b["x"], b["y"], b["id"])
print(len(dl), len(DataLoader(ds, batch_size=4, drop_last=True)))
tds = TensorDataset(torch.arange(6.0).view(3, 2), torch.tensor([0, 1, 0]))
for xb, yb in DataLoader(tds, batch_size=2):
    print(xb, yb, yb.dtype)
a, b = random_split(range(10), [7, 3], generator=torch.Generator().manual_seed(1))
print(len(a), len(b), type(a).__name__)
print([int(v) for v in Subset(ds.x, [1, 3])], len(ConcatDataset([ds, ds])), ConcatDataset([ds, ds])[12]["id"])


def collate(batch):
    xs = [torch.full((i + 1,), float(i)) for i in range(len(batch))]
    return torch.nn.utils.rnn.pad_sequence(xs, batch_first=True, padding_value=-1)


print(next(iter(DataLoader(list(range(3)), batch_size=3, collate_fn=collate))))
print(list(DataLoader([(1, 2.0), (3, 4.0)], batch_size=2)))
g = torch.Generator().manual_seed(0)
print(sorted(int(t) for t in torch.cat(list(DataLoader(torch.arange(8), batch_size=3, shuffle=True, generator=g)))))
