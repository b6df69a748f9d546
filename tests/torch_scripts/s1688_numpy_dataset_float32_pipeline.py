# A custom Dataset yielding NumPy float32 arrays, ints and strings, default collate turning
# them into tensors, a float32 model (model.float()), and ConcatDataset/Subset/BatchSampler
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import (BatchSampler, ConcatDataset, DataLoader, Dataset,
                              SequentialSampler, Subset)


class TabularDataset(Dataset):
    def __init__(self, n, offset):
        rng = np.random.default_rng(offset)
        self.x = rng.standard_normal((n, 5)).astype(np.float32)
        self.y = (self.x[:, 0] + offset * 0.1 > 0).astype(np.int64)
        self.names = [f"row{offset}_{i}" for i in range(n)]

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": self.x[i], "y": self.y[i], "name": self.names[i], "w": 1.0 + (i % 2)}


ds = ConcatDataset([TabularDataset(10, 0), TabularDataset(6, 3)])
print(len(ds), ds.cumulative_sizes, ds[11]["name"])
batch = next(iter(DataLoader(ds, batch_size=4)))
print({k: (type(v).__name__, getattr(v, "dtype", None)) for k, v in batch.items()})
print(batch["name"], batch["w"], batch["y"])
model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 2)).float()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(i).normal(0, 0.4, tuple(p.shape)).astype(np.float32)))
print(next(model.parameters()).dtype)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(ds), batch_size=5, drop_last=True))
print(len(loader))
for epoch in range(3):
    total = 0.0
    for b in loader:
        out = model(b["x"])
        loss = (nn.functional.cross_entropy(out, b["y"], reduction="none") * b["w"]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, f"{total:.4f}", loss.dtype, out.dtype)
sub = Subset(ds, [0, 2, 15])
xs = torch.stack([torch.as_tensor(sub[i]["x"]) for i in range(len(sub))])
with torch.no_grad():
    pr = model(xs).softmax(-1)
print(pr.dtype, pr.numpy().round(3))
print(torch.as_tensor(ds[0]["x"]).dtype, torch.tensor(ds[0]["y"]).dtype, torch.tensor([ds[0]["w"]]).dtype)
mixed = torch.from_numpy(ds[0]["x"]) * torch.tensor(2.0)
print(mixed.dtype, (torch.from_numpy(ds[0]["x"]) + torch.ones(5)).dtype)
