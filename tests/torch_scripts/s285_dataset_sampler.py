import torch
from torch.utils.data import Dataset, DataLoader, Sampler, TensorDataset, Subset, random_split, ConcatDataset


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i, "name": f"item{i}"}


class EveryOther(Sampler):
    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(0, len(self.data_source), 2))

    def __len__(self):
        return (len(self.data_source) + 1) // 2


ds = Squares(9)
dl = DataLoader(ds, batch_size=2, sampler=EveryOther(ds))
print(len(dl))
for b in dl:
    print(b["x"].shape, b["x"].dtype, b["y"], b["name"])


def pad_collate(batch):
    seqs, ys = zip(*batch)
    lens = torch.tensor([len(s) for s in seqs])
    out = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1)
    return out, lens, torch.stack(ys)


data = [(torch.arange(i + 1.0), torch.tensor(i % 2)) for i in range(5)]
for xb, lens, yb in DataLoader(data, batch_size=3, collate_fn=pad_collate):
    print(xb, lens, yb)

td = TensorDataset(torch.arange(10.).view(5, 2), torch.arange(5))
print(td[1], len(td), td.tensors[0].shape)
sub = Subset(td, [4, 0, 2])
print([sub[i][1].item() for i in range(len(sub))])
g = torch.Generator().manual_seed(42)
a, b = random_split(td, [3, 2], generator=g)
print(len(a), len(b), sorted(a.indices + b.indices))
a2, b2, c2 = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))
print(len(a2), len(b2), len(c2))
cat = ConcatDataset([td, sub])
print(len(cat), cat[6][1], cat.cumulative_sizes)
dl = DataLoader(td, batch_size=2, drop_last=True)
print(len(dl), [yb.tolist() for _, yb in dl])
try:
    random_split(td, [3, 3])
except ValueError as e:
    print("ValueError:", e)
