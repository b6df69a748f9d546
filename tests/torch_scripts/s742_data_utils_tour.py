# torch.utils.data tour: custom Dataset, random_split with a seeded generator (sizes only),
# Subset, ConcatDataset, collate_fn padding, WeightedRandomSampler (counts only), BatchSampler
import torch
from torch.utils.data import (Dataset, DataLoader, random_split, Subset, ConcatDataset,
                              WeightedRandomSampler, SequentialSampler, BatchSampler)
from torch.nn.utils.rnn import pad_sequence


class SeqDataset(Dataset):
    def __init__(self, n):
        self.items = [torch.arange(1, i % 4 + 2) for i in range(n)]
        self.labels = [i % 3 for i in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx], self.labels[idx]


def collate_fn(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, lengths, torch.tensor(labels)


ds = SeqDataset(10)
loader = DataLoader(ds, batch_size=4, collate_fn=collate_fn)
for padded, lengths, labels in loader:
    print(padded.tolist(), lengths.tolist(), labels.tolist())
train_ds, val_ds = random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
print(len(train_ds), len(val_ds), type(train_ds).__name__)
a, b, c = random_split(range(10), [5, 3, 2])
print(len(a), len(b), len(c), sorted(list(a) + list(b) + list(c)) == list(range(10)))
sub = Subset(ds, [0, 2, 4])
print(len(sub), sub[1][0].tolist(), sub.indices)
cat = ConcatDataset([sub, Subset(ds, [9])])
print(len(cat), cat[3][0].tolist(), cat.cumulative_sizes)
labels = torch.tensor(ds.labels)
class_count = torch.bincount(labels)
weights = 1.0 / class_count.float()
sample_weights = weights[labels]
print(class_count.tolist(), sample_weights.round(decimals=3).tolist())
sampler = WeightedRandomSampler(sample_weights, num_samples=20, replacement=True)
drawn = list(sampler)
print(len(drawn), all(0 <= i < 10 for i in drawn), len(sampler))
wl = DataLoader(ds, batch_size=5, sampler=sampler, collate_fn=collate_fn)
print(len(wl), [b[0].shape[0] for b in wl])
bs = BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)
print(list(bs), len(bs))
dl = DataLoader(ds, batch_size=3, drop_last=True)
print(len(dl))
print(next(iter(DataLoader(list(range(5)), batch_size=5))))
