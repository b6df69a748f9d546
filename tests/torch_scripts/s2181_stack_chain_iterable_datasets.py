import torch
from torch.utils.data import (ChainDataset, DataLoader, IterableDataset, StackDataset,
                              TensorDataset)


class Countdown(IterableDataset):
    def __init__(self, start, stop):
        super().__init__()
        self.start, self.stop = start, stop

    def __iter__(self):
        for k in range(self.start, self.stop, -1):
            yield torch.tensor([float(k), float(k) ** 2])


chain = ChainDataset([Countdown(5, 2), Countdown(10, 8)])
print([row.tolist() for row in chain])
for batch in DataLoader(chain, batch_size=2):
    print(batch.shape, batch.sum().item())

feats = torch.arange(12.0).reshape(4, 3)
labels = torch.tensor([1, 0, 1, 1])
stacked = StackDataset(feats, labels)
print(len(stacked), stacked[2])
named = StackDataset(x=feats, y=labels)
print(named[1]["x"], named[1]["y"])
for b in DataLoader(named, batch_size=3):
    print(sorted(b.keys()), b["x"].sum(dim=1), b["y"])
pairs = TensorDataset(feats, labels.float())
total = 0.0
for xb, yb in DataLoader(pairs, batch_size=2, drop_last=True):
    total += (xb.mean(1) * yb).sum().item()
print(total)
try:
    TensorDataset(feats, labels[:3])
except AssertionError as e:
    print("AssertionError:", e)
