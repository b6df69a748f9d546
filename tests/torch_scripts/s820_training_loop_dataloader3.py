# A full little loop: TensorDataset, DataLoader(shuffle=False, drop_last), epoch loss
# averaging by batch size, accuracy with argmax, and a no_grad eval pass
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

xs = torch.linspace(-3, 3, 50).view(-1, 1)
X = torch.cat([xs, xs ** 2 / 3], 1)
Y = (xs.squeeze() > 0).long() + (xs.squeeze() > 1.5).long()
ds = TensorDataset(X, Y)
print(len(ds), ds[3][0], ds[3][1], ds[3][1].dtype)
dl = DataLoader(ds, batch_size=8, shuffle=False, drop_last=True)
print(len(dl))
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 1.3 + i).view_as(p) * 0.6)
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.5)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(15):
    tot, n = 0.0, 0
    for xb, yb in dl:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        tot += loss.item() * len(xb)
        n += len(xb)
    if epoch % 5 == 4:
        print(epoch, round(tot / n, 5))
model.eval()
with torch.no_grad():
    pred = model(X).argmax(1)
print((pred == Y).float().mean().item(), pred[:10], torch.bincount(pred, minlength=3))
xb, yb = next(iter(DataLoader(ds, batch_size=4)))
print(xb.shape, yb)
