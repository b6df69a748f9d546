# torch.utils.data: samplers (Sequential, SubsetRandom lengths, WeightedRandom lengths, BatchSampler), ConcatDataset, default_collate on dicts/tuples
import torch
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset, SequentialSampler,
                              TensorDataset, Subset, default_collate)

class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i, "name": f"item{i}"}

ds = ConcatDataset([Squares(3), Squares(4)])
print(len(ds), ds.cumulative_sizes, ds[4]["y"])
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=True)))
for batch in DataLoader(ds, batch_size=3):
    print(batch["x"].shape, batch["y"], batch["name"])
print(len(DataLoader(ds, batch_size=3, drop_last=True)))
b = default_collate([(torch.tensor([1.0, 2.0]), 3), (torch.tensor([4.0, 5.0]), 6)])
print(b)
td = TensorDataset(torch.arange(10.0).view(5, 2), torch.arange(5))
sub = Subset(td, [4, 0, 2])
print([sub[i][1].item() for i in range(len(sub))])
print(next(iter(DataLoader(sub, batch_size=2))))
dl = DataLoader(td, batch_size=2, collate_fn=lambda items: torch.stack([a for a, _ in items]).sum(0))
print([t.tolist() for t in dl])
