import torch
from torch.utils.data import (DataLoader, TensorDataset, WeightedRandomSampler, BatchSampler,
                              SequentialSampler, RandomSampler, SubsetRandomSampler, IterableDataset,
                              default_collate, get_worker_info)

ds = TensorDataset(torch.arange(10.), torch.arange(10) % 3)
print(list(BatchSampler(SequentialSampler(ds), batch_size=4, drop_last=False)))
print(list(BatchSampler(range(7), 3, True)))
g = torch.Generator().manual_seed(0)
rs = list(RandomSampler(ds, generator=g))
print(sorted(rs) == list(range(10)), len(RandomSampler(ds, replacement=True, num_samples=25)))
ws = WeightedRandomSampler([0.0, 0.0, 1.0, 0.0], num_samples=5, replacement=True)
print(list(ws), len(ws))
ws2 = list(WeightedRandomSampler(torch.tensor([1.0, 1.0, 1.0]), 3, replacement=False))
print(sorted(ws2))
sr = list(SubsetRandomSampler([2, 4, 6], generator=torch.Generator().manual_seed(3)))
print(sorted(sr))
dl = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 3, drop_last=True))
print([b[0].tolist() for b in dl], len(dl))


class Stream(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        assert info is None
        for i in range(self.n):
            yield torch.tensor([i, i * i]), i % 2 == 0


dl = DataLoader(Stream(5), batch_size=2)
for x, flag in dl:
    print(x.tolist(), flag)
print(default_collate([{"a": 1, "b": torch.ones(2)}, {"a": 2, "b": torch.zeros(2)}]))
print(default_collate([(1.5, "x"), (2.5, "y")]))
print(default_collate([torch.tensor(1), torch.tensor(2)]).shape)
try:
    DataLoader(ds, batch_size=2, shuffle=True, sampler=SequentialSampler(ds))
except ValueError as e:
    print("ValueError:", e)
try:
    len(DataLoader(Stream(3)))
except TypeError as e:
    print("TypeError:", e)
dl = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(5))
print(sorted(torch.cat([b[0] for b in dl]).tolist()) == list(range(10)), [len(b[1]) for b in dl])
