import torch
from torch.utils.data import Dataset, DataLoader


class SquaresDataset(Dataset):
    def __init__(self, n):
        self.x = torch.arange(n, dtype=torch.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return {"x": self.x[idx], "y": self.x[idx] ** 2, "id": idx}


ds = SquaresDataset(10)
print(len(ds), ds[3])
dl = DataLoader(ds, batch_size=4)
for batch in dl:
    print(batch["x"], batch["y"].dtype, batch["id"])


class VarLen(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return torch.arange(i + 1), i


def pad_collate(batch):
    seqs, labels = zip(*batch)
    lens = torch.tensor([len(s) for s in seqs])
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=-1)
    return padded, lens, torch.tensor(labels)


for padded, lens, labels in DataLoader(VarLen(), batch_size=3, collate_fn=pad_collate):
    print(padded, lens, labels)
dl2 = DataLoader(ds, batch_size=3, drop_last=True)
print(len(dl2), [b["id"].tolist() for b in dl2])
it = iter(DataLoader(list(zip(torch.ones(4, 2), torch.tensor([0, 1, 0, 1]))), batch_size=2))
xb, yb = next(it)
print(xb.shape, yb)
