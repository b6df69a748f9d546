import torch
from torch.utils.data import IterableDataset, DataLoader, ConcatDataset, ChainDataset, TensorDataset, Subset


class Counter(IterableDataset):
    def __init__(self, start, stop):
        self.start, self.stop = start, stop

    def __iter__(self):
        for i in range(self.start, self.stop):
            yield torch.tensor([float(i), float(i) ** 2])


loader = DataLoader(Counter(0, 7), batch_size=3)
for batch in loader:
    print(batch.shape, batch[:, 0].tolist())
chained = ChainDataset([Counter(0, 2), Counter(10, 12)])
print([x[0].item() for x in chained])
a = TensorDataset(torch.arange(4.0), torch.arange(4) % 2)
b = TensorDataset(torch.arange(10.0, 13.0), torch.ones(3, dtype=torch.long))
cat = ConcatDataset([a, b])
print(len(cat), cat.cumulative_sizes, cat[5])
sub = Subset(cat, [0, 4, 6])
print(len(sub), [sub[i][0].item() for i in range(len(sub))])
dl = DataLoader(cat, batch_size=4, shuffle=False, drop_last=True)
print(len(dl), [xb.tolist() for xb, yb in dl])


def collate(samples):
    xs, ys = zip(*samples)
    return torch.stack(xs), torch.tensor(ys).float()


dl = DataLoader(cat, batch_size=3, collate_fn=collate)
xb, yb = next(iter(dl))
print(xb, yb, yb.dtype)
dl = DataLoader(Counter(0, 5), batch_size=None)
print([x.shape for x in dl][:2])
sampler = torch.utils.data.SequentialSampler(range(5))
bs = torch.utils.data.BatchSampler(sampler, batch_size=2, drop_last=False)
print(list(bs), len(bs))
