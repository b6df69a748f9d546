import torch
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
from torch.utils.data import Dataset, DataLoader


class Sentences(Dataset):
    def __init__(self):
        self.data = [[1, 2, 3], [4, 5], [6, 7, 8, 9], [2], [3, 3]]
        self.labels = [0, 1, 1, 0, 1]

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return torch.tensor(self.data[i]), self.labels[i]


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True, padding_value=0), lengths, torch.tensor(labels)


loader = DataLoader(Sentences(), batch_size=2, collate_fn=collate)
for xb, lb, yb in loader:
    print(xb.tolist(), lb.tolist(), yb.tolist())
seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0]), torch.tensor([5.0, 6.0])]
print(pad_sequence(seqs), pad_sequence(seqs, batch_first=True, padding_value=-1.0))
print(pad_sequence(seqs, batch_first=True, padding_side="left"))
lengths = torch.tensor([3, 1, 2])
packed = pack_padded_sequence(pad_sequence(seqs, batch_first=True).unsqueeze(-1), lengths, batch_first=True, enforce_sorted=False)
print(packed.batch_sizes, packed.data.squeeze(-1), packed.sorted_indices, packed.unsorted_indices)
un, ln = pad_packed_sequence(packed, batch_first=True, total_length=4)
print(un.squeeze(-1), ln)
default = DataLoader([(torch.tensor([1.0, 2.0]), 3), (torch.tensor([4.0, 5.0]), 6)], batch_size=2)
xb, yb = next(iter(default))
print(xb, yb, yb.dtype)
dicts = DataLoader([{"x": torch.tensor(1.0), "y": [1, 2]}, {"x": torch.tensor(2.0), "y": [3, 4]}], batch_size=2)
print(next(iter(dicts)))
print(next(iter(DataLoader([1.5, 2.5, 3.5], batch_size=3))), next(iter(DataLoader(["a", "b"], batch_size=2))))
try:
    pack_padded_sequence(torch.zeros(3, 2), torch.tensor([1, 2, 3]))
except RuntimeError as e:
    print("RuntimeError", str(e)[:70])
