# Samplers: SequentialSampler, BatchSampler drop_last, SubsetRandomSampler lengths, WeightedRandomSampler shapes, IterableDataset
import torch
from torch.utils.data import SequentialSampler, BatchSampler, SubsetRandomSampler, WeightedRandomSampler, IterableDataset, DataLoader, RandomSampler

print(list(BatchSampler(SequentialSampler(range(7)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(7), batch_size=3, drop_last=True)), len(BatchSampler(range(7), 3, False)))
s = SubsetRandomSampler([4, 5, 6])
print(sorted(list(s)), len(s))
w = WeightedRandomSampler([0.0, 0.0, 1.0], num_samples=5, replacement=True)
print(list(w), len(w))
r = RandomSampler(range(5), replacement=True, num_samples=8)
print(len(list(r)), len(r))
class Stream(IterableDataset):
    def __iter__(self):
        for i in range(5):
            yield torch.tensor([float(i)])
print([b.flatten().tolist() for b in DataLoader(Stream(), batch_size=2)])
dl = DataLoader(list(range(10)), batch_sampler=BatchSampler(SequentialSampler(range(10)), 4, False))
print([b.tolist() for b in dl])
