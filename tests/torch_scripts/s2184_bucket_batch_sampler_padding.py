import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import BatchSampler, DataLoader, Dataset, Sampler, SequentialSampler


class Sentences(Dataset):
    def __init__(self):
        self.items = [torch.arange(1, n + 1) * (i + 1) for i, n in enumerate([3, 1, 4, 1, 5, 2, 6, 2])]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i], len(self.items[i])


class ByLength(Sampler):
    def __init__(self, ds):
        self.order = sorted(range(len(ds)), key=lambda i: (len(ds.items[i]), i))

    def __iter__(self):
        return iter(self.order)

    def __len__(self):
        return len(self.order)


def pad_collate(batch):
    seqs, lens = zip(*batch)
    return pad_sequence(list(seqs), batch_first=True, padding_value=0), torch.tensor(lens)


ds = Sentences()
bs = BatchSampler(ByLength(ds), batch_size=3, drop_last=False)
print(list(bs), len(bs))
for padded, lens in DataLoader(ds, batch_sampler=bs, collate_fn=pad_collate):
    mask = torch.arange(padded.shape[1]) < lens.unsqueeze(1)
    print(padded.tolist(), lens.tolist(), (padded * mask).sum(1).tolist())
print(list(BatchSampler(SequentialSampler(range(7)), 3, drop_last=True)))
loader = DataLoader(ds, batch_size=4, collate_fn=pad_collate)
print([p.shape for p, _ in loader])
left = pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True, padding_side="left")
print(left)
