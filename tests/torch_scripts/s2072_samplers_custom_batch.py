import torch
from torch.utils.data import Dataset, DataLoader, Sampler, SequentialSampler, BatchSampler, SubsetRandomSampler, default_collate

class Squares(Dataset):
    def __len__(self):
        return 7
    def __getitem__(self, i):
        return {"x": torch.tensor([float(i), float(i) ** 2]), "i": i, "name": f"item{i}"}

class EvenFirst(Sampler):
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return iter([i for i in range(self.n) if i % 2 == 0] + [i for i in range(self.n) if i % 2])
    def __len__(self):
        return self.n

ds = Squares()
for batch in DataLoader(ds, batch_size=3, sampler=EvenFirst(7)):
    print(batch["x"].tolist(), batch["i"], batch["name"])
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True)))
dl = DataLoader(ds, batch_sampler=[[0, 6], [1, 2, 3]])
print([b["i"].tolist() for b in dl])
print(default_collate([(1, 2.0), (3, 4.0)]))
print(default_collate([{"a": torch.ones(2)}, {"a": torch.zeros(2)}]))
print(default_collate([[1, 2], [3, 4]]))
g = torch.Generator().manual_seed(3)
idx = list(SubsetRandomSampler([10, 20, 30, 40], generator=g))
print(sorted(idx))
dl = DataLoader(ds, batch_size=None)
first = next(iter(dl))
print(first["x"], first["i"])
dl = DataLoader(list(range(5)), batch_size=2)
print(list(dl))
dl = DataLoader([(torch.tensor(i), torch.tensor([i, i])) for i in range(4)], batch_size=3)
print([tuple(t.shape for t in b) for b in dl])
