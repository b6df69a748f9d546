import torch
from torch.utils.data import Dataset, DataLoader, SequentialSampler, BatchSampler, SubsetRandomSampler


class Squares(Dataset):
    def __init__(self, n, transform=None):
        self.x = torch.arange(n, dtype=torch.float64)
        self.transform = transform

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        x = self.x[idx]
        y = x ** 2
        if self.transform:
            x = self.transform(x)
        return x, y


ds = Squares(10, transform=lambda t: (t - 4.5) / 3)
print(len(ds), ds[0], ds[9][1].item())
loader = DataLoader(ds, batch_size=4)
for i, (xb, yb) in enumerate(loader):
    print(i, xb.shape, yb.tolist())
bs = BatchSampler(SequentialSampler(ds), batch_size=3, drop_last=True)
print(list(bs), len(bs))
print(len(DataLoader(ds, batch_sampler=bs)))
sampler = DataLoader(ds, sampler=[9, 0, 5], batch_size=2)
print([yb.tolist() for _, yb in sampler])
w = torch.nn.Parameter(torch.zeros(3))
opt = torch.optim.SGD([w], lr=0.05)
for epoch in range(40):
    for xb, yb in DataLoader(ds, batch_size=5):
        pred = w[0] + w[1] * xb + w[2] * xb ** 2
        loss = ((pred - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
print(round(loss.item(), 4), w.detach().round(decimals=3))
it = iter(DataLoader(ds, batch_size=6))
print(next(it)[1].tolist(), next(it)[1].tolist())
try:
    next(it)
except StopIteration:
    print("StopIteration")
g = torch.Generator().manual_seed(3)
sr = list(SubsetRandomSampler([1, 3, 5, 7], generator=g))
print(sorted(sr), len(sr))
