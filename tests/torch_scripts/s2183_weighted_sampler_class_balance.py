import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1, 2, 3])
counts = torch.bincount(labels)
print("counts", counts.tolist())
class_w = 1.0 / counts.double()
print("class weights", class_w)
sample_w = class_w[labels]
print(sample_w.sum().item(), sample_w.dtype)
# a class with zero weight is never drawn
sample_w[labels == 3] = 0.0
torch.manual_seed(3)
sampler = WeightedRandomSampler(sample_w, num_samples=200, replacement=True)
drawn = torch.tensor(list(sampler))
print(len(sampler), drawn.shape, drawn.dtype, bool((labels[drawn] != 3).all()))
print(bool((drawn >= 0).all() and (drawn < 10).all()))
nodup = list(WeightedRandomSampler([0.1, 0.2, 0.3, 0.4], 4, replacement=False))
print(sorted(nodup))
ds = TensorDataset(torch.arange(10.0), labels)
loader = DataLoader(ds, batch_size=50, sampler=sampler)
for xb, yb in loader:
    print(xb.shape, yb.shape, bool((yb < 3).all()))
try:
    WeightedRandomSampler([0.5, 0.5], num_samples=0)
except ValueError as e:
    print("ValueError:", e)
try:
    WeightedRandomSampler([0.5, 0.5], num_samples=2, replacement=1)
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
