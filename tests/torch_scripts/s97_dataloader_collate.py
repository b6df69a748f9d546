import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, Subset, ConcatDataset, random_split
from torch.utils.data import SequentialSampler, RandomSampler, BatchSampler, SubsetRandomSampler, WeightedRandomSampler
from torch.utils.data.dataloader import default_collate

class VarLen(Dataset):
    def __init__(self):
        self.data = [torch.arange(n) for n in [3, 1, 4, 2, 5]]
    def __len__(self):
        return len(self.data)
    def __getitem__(self, i):
        return {"seq": self.data[i], "label": i % 2, "name": f"item{i}"}

def pad_collate(batch):
    lens = torch.tensor([len(b["seq"]) for b in batch])
    out = torch.zeros(len(batch), int(lens.max()), dtype=torch.long)
    for j, b in enumerate(batch):
        out[j, :len(b["seq"])] = b["seq"]
    return out, lens, torch.tensor([b["label"] for b in batch]), [b["name"] for b in batch]

dl = DataLoader(VarLen(), batch_size=2, collate_fn=pad_collate)
for x, lens, y, names in dl:
    print(x.tolist(), lens.tolist(), y.tolist(), names)
print(len(dl), len(DataLoader(VarLen(), batch_size=2, drop_last=True)))
for batch in DataLoader(VarLen(), batch_size=2, drop_last=True, collate_fn=lambda b: [d["name"] for d in b]):
    print(batch)

ds = TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
b = default_collate([ds[0], ds[1]])
print(type(b).__name__, b[0], b[1])
print(default_collate([{"a": 1, "b": 2.5}, {"a": 3, "b": 4.5}]))
print(default_collate([(1, "x"), (2, "y")]))
print(default_collate([torch.ones(2), torch.zeros(2)]).shape)
print(list(SequentialSampler(range(4))), list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(7), 3, True)))
g = torch.Generator().manual_seed(0)
print(sorted(RandomSampler(range(6), generator=g)), len(RandomSampler(range(6), replacement=True, num_samples=10)))
print(sorted(SubsetRandomSampler([1, 3, 5])), len(WeightedRandomSampler([0.1, 0.9], 5)))
print(sorted(set(WeightedRandomSampler([0.0, 1.0, 0.0], 4).__iter__())))
dl2 = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), 2, False))
print([y.tolist() for _, y in dl2])
dl3 = DataLoader(ds, sampler=SubsetRandomSampler([0, 2]), batch_size=5)
print([sorted(y.tolist()) for _, y in dl3])
sub = Subset(ds, [4, 0])
print(len(sub), sub[0][1], len(ConcatDataset([ds, sub])), ConcatDataset([ds, sub])[6][1])
a, bb = random_split(ds, [3, 2], generator=torch.Generator().manual_seed(1))
print(len(a), len(bb), sorted(a.indices + bb.indices))
c, d = random_split(range(10), [0.7, 0.3])
print(len(c), len(d))
shuffled = [y.item() for _, y in DataLoader(ds, batch_size=1, shuffle=True)]
print(sorted(shuffled))
