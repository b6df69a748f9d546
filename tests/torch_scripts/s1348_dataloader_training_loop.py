# TensorDataset + DataLoader (no shuffle) batches, drop_last, and a training epoch
import torch
from torch.utils.data import TensorDataset, DataLoader

X = torch.arange(10.0).reshape(5, 2)
y = torch.tensor([0.0, 1.0, 0.0, 1.0, 1.0])
ds = TensorDataset(X, y)
print(len(ds), ds[1])
for xb, yb in DataLoader(ds, batch_size=2):
    print(xb.shape, yb)
print(len(DataLoader(ds, batch_size=2, drop_last=True)), len(DataLoader(ds, batch_size=2)))
w = torch.zeros(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.01)
for xb, yb in DataLoader(ds, batch_size=2):
    opt.zero_grad()
    ((xb @ w - yb) ** 2).mean().backward()
    opt.step()
print(w)
