# A full small classification training loop with deterministic data and init: accuracy, loss, confusion counts per epoch
import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

X = torch.stack([torch.linspace(-2, 2, 40), torch.cos(torch.linspace(0, 6, 40))], dim=1)
y = (X[:, 0] + 0.5 * X[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 1.7 + i).view_as(p) * 0.5)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
loader = DataLoader(TensorDataset(X, y), batch_size=10, shuffle=False)
crit = nn.CrossEntropyLoss()
for epoch in range(4):
    total, correct, running = 0, 0, 0.0
    model.train()
    for xb, yb in loader:
        opt.zero_grad()
        out = model(xb)
        loss = crit(out, yb)
        loss.backward()
        opt.step()
        running += loss.item() * xb.size(0)
        correct += (out.argmax(1) == yb).sum().item()
        total += yb.numel()
    model.eval()
    with torch.no_grad():
        pred = model(X).argmax(1)
        conf = torch.zeros(2, 2, dtype=torch.long)
        conf.index_put_((y, pred), torch.ones_like(y), accumulate=True)
    print(epoch, f"{running / total:.5f}", correct, conf.tolist())
