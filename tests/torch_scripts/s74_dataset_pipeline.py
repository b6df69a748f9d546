import torch
from torch.utils.data import Dataset, DataLoader, TensorDataset, random_split, WeightedRandomSampler, SequentialSampler, BatchSampler, default_collate
from torch.nn.utils.rnn import pad_sequence


class ToyTextDataset(Dataset):
    def __init__(self, sentences, labels, transform=None):
        self.sentences = sentences
        self.labels = labels
        self.transform = transform

    def __len__(self):
        return len(self.sentences)

    def __getitem__(self, idx):
        if torch.is_tensor(idx):
            idx = idx.tolist()
        tokens = torch.tensor([ord(c) - 96 for c in self.sentences[idx]])
        sample = {'tokens': tokens, 'label': self.labels[idx]}
        if self.transform:
            sample = self.transform(sample)
        return sample


class Truncate:
    def __init__(self, n):
        self.n = n

    def __call__(self, sample):
        return {'tokens': sample['tokens'][:self.n], 'label': sample['label']}


def collate(batch):
    toks = [b['tokens'] for b in batch]
    lengths = torch.tensor([len(t) for t in toks])
    return pad_sequence(toks, batch_first=True), lengths, torch.tensor([b['label'] for b in batch])


ds = ToyTextDataset(["abc", "hello", "hi", "torch", "z"], [0, 1, 0, 1, 0], transform=Truncate(4))
print(len(ds), ds[1], ds[torch.tensor(3)]['tokens'])
dl = DataLoader(ds, batch_size=2, collate_fn=collate)
for padded, lengths, labels in dl:
    print(padded, lengths, labels)
print(default_collate([{'a': torch.ones(2), 'b': 1}, {'a': torch.zeros(2), 'b': 2}]))
print(default_collate([(torch.tensor(1.0), 3), (torch.tensor(2.0), 4)]))
print(default_collate([[1.5, 2.5], [3.5, 4.5]]))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)), list(BatchSampler(range(7), 3, True)))
sampler = WeightedRandomSampler([0.1, 0.9, 0.0], num_samples=5, replacement=True, generator=torch.Generator().manual_seed(0))
print(len(list(sampler)), set(list(sampler)) <= {0, 1}, len(sampler))
X = torch.arange(40.).reshape(20, 2)
Y = (X.sum(1) > 20).long()
full = TensorDataset(X, Y)
train, val, test = random_split(full, [0.6, 0.2, 0.2], generator=torch.Generator().manual_seed(1))
print(len(train), len(val), len(test), sorted(train.indices + val.indices + test.indices) == list(range(20)))
loader = DataLoader(train, batch_size=5, shuffle=True, generator=torch.Generator().manual_seed(2), drop_last=True)
shapes = [tuple(xb.shape) for xb, yb in loader]
print(shapes, len(loader))
total = sum(yb.sum().item() for _, yb in DataLoader(full, batch_size=7))
print(total, Y.sum().item())
it = iter(DataLoader(full, batch_size=8))
xb, yb = next(it)
print(xb[:2], yb.dtype, next(it)[0].shape, next(it)[0].shape)


class Squares(torch.utils.data.IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([float(i)]), i * i


print([b[1].tolist() for b in DataLoader(Squares(5), batch_size=2)])
