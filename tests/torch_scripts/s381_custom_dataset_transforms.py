import torch
from torch.utils.data import Dataset, DataLoader, IterableDataset, get_worker_info, WeightedRandomSampler, SubsetRandomSampler


class Windows(Dataset):
    def __init__(self, series, w):
        self.s, self.w = series, w

    def __len__(self):
        return len(self.s) - self.w

    def __getitem__(self, i):
        return self.s[i:i + self.w], self.s[i + self.w]


series = torch.sin(torch.linspace(0, 6.28, 20))
ds = Windows(series, 4)
dl = DataLoader(ds, batch_size=5, shuffle=False)
for xb, yb in dl:
    print(xb.shape, yb.shape, round(yb.sum().item(), 5))
print(len(dl), len(ds))


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        return iter(range(self.n))


print(list(DataLoader(Stream(7), batch_size=3)))
print([b.tolist() for b in DataLoader(Stream(5), batch_size=2, drop_last=True)])
g = torch.Generator().manual_seed(0)
ws = WeightedRandomSampler([0.0, 0.0, 1.0, 0.0], num_samples=5, replacement=True, generator=g)
print(list(ws), len(ws))
srs = SubsetRandomSampler([3, 5, 7], generator=g)
print(sorted(srs), len(srs))
dl2 = DataLoader(ds, batch_size=None)
first = next(iter(dl2))
print(type(first).__name__, first[0].shape)
dl3 = DataLoader([{"a": i, "b": [i, i * 2]} for i in range(4)], batch_size=2)
print(list(dl3))
dl4 = DataLoader(list(range(10)), batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(1))
print(sorted(sum((b.tolist() for b in dl4), [])))
print(DataLoader(ds).batch_size, DataLoader(ds, batch_size=3).drop_last)
