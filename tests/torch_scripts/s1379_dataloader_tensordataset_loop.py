# TensorDataset + DataLoader: batches, drop_last, len, a training loop
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

X = torch.linspace(-1, 1, 10).unsqueeze(1)
Y = 3 * X + 0.5
ds = TensorDataset(X, Y)
print(len(ds), ds[3])
for drop in (False, True):
    dl = DataLoader(ds, batch_size=4, drop_last=drop)
    print(len(dl), [xb.shape[0] for xb, _ in dl])
model = nn.Linear(1, 1)
with torch.no_grad():
    model.weight.fill_(0.0); model.bias.fill_(0.0)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(20):
    for xb, yb in DataLoader(ds, batch_size=5):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        opt.step()
print(model.weight.item(), model.bias.item())
print(round(loss.item(), 8))
