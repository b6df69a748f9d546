# Variable-length sequences through a DataLoader: a map-style Dataset of dicts, a collate
# function padding with pad_sequence and returning lengths, a BatchSampler over a sorted
# index list (bucketing), default_collate on nested structures, and a packed GRU over it
import collections
import torch
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
from torch.utils.data import BatchSampler, DataLoader, Dataset, SequentialSampler
from torch.utils.data.dataloader import default_collate


class Seqs(Dataset):
    def __init__(self):
        self.items = [torch.arange(1.0, n + 1) * (k + 1) for k, n in enumerate([3, 5, 2, 4, 1, 5])]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return {"x": self.items[i], "y": i % 2, "len": len(self.items[i])}


def collate(batch):
    xs = [b["x"] for b in batch]
    return (pad_sequence(xs, batch_first=True, padding_value=0.0),
            torch.tensor([b["len"] for b in batch]), torch.tensor([b["y"] for b in batch]))


ds = Seqs()
order = sorted(range(len(ds)), key=lambda i: -len(ds.items[i]))
loader = DataLoader(ds, batch_sampler=BatchSampler(order, batch_size=4, drop_last=False),
                    collate_fn=collate)
gru = torch.nn.GRU(1, 3, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) + i).view_as(p) * 0.3)
for xb, lens, yb in loader:
    print(xb.shape, lens.tolist(), yb.tolist())
    packed = pack_padded_sequence(xb.unsqueeze(-1), lens, batch_first=True)
    out, h = gru(packed)
    un, ul = pad_packed_sequence(out, batch_first=True)
    print(un.shape, ul.tolist(), h.squeeze(0).detach().numpy().round(5))
print(list(BatchSampler(SequentialSampler(range(5)), 2, drop_last=True)))
Point = collections.namedtuple("Point", "a b")
out = default_collate([Point(1, torch.ones(2)), Point(2, torch.zeros(2))])
print(type(out).__name__, out.a, out.b)
print(default_collate([{"k": (1.5, "s")}, {"k": (2.5, "t")}]))
dl = DataLoader(list(range(7)), batch_size=3, shuffle=False, drop_last=True)
print(len(dl), [b.tolist() for b in dl])
