import torch
from torch.utils.data import Dataset, DataLoader, default_collate, Subset, ConcatDataset

class Seqs(Dataset):
    def __init__(self, n):
        self.items = [{"tokens": torch.arange(i % 3 + 1), "label": i % 2, "name": f"s{i}"} for i in range(n)]
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return self.items[i]

def pad_collate(batch):
    L = max(len(b["tokens"]) for b in batch)
    toks = torch.full((len(batch), L), -1, dtype=torch.long)
    for i, b in enumerate(batch):
        toks[i, :len(b["tokens"])] = b["tokens"]
    return {"tokens": toks, "label": torch.tensor([b["label"] for b in batch]), "names": [b["name"] for b in batch]}

ds = Seqs(7)
for batch in DataLoader(ds, batch_size=3, collate_fn=pad_collate):
    print(batch["tokens"].tolist(), batch["label"], batch["names"])
dl = DataLoader(Subset(ds, [0, 3, 6]), batch_size=2, drop_last=True, collate_fn=pad_collate)
print(len(dl), [b["names"] for b in dl])
fixed = [{"x": torch.tensor([float(i), 1.0]), "y": i, "meta": (i, "a")} for i in range(4)]
b = default_collate(fixed[:2])
print(b["x"], b["y"], b["meta"])
cat = ConcatDataset([fixed, fixed[:1]])
print(len(cat), cat[4]["y"])
print(next(iter(DataLoader(cat, batch_size=5)))["x"].shape)
print(len(DataLoader(ds, batch_size=2)), len(DataLoader(ds, batch_size=2, drop_last=True)))
