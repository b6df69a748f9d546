import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader, Subset

n = 24
X = torch.stack([torch.linspace(-1, 1, n), torch.cos(torch.linspace(0, 6, n))], 1)
y = (X[:, 0] * 2 - X[:, 1] > 0).long()
ds = TensorDataset(X, y)
train = Subset(ds, list(range(0, n, 4)) + list(range(1, n, 4)) + list(range(2, n, 4)))
val = Subset(ds, list(range(3, n, 4)))
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 1.3 + i).reshape(p.shape) * 0.5)
opt = torch.optim.AdamW(model.parameters(), lr=0.05)
crit = nn.CrossEntropyLoss()
best = float("inf")
for epoch in range(5):
    model.train()
    total = 0.0
    for xb, yb in DataLoader(train, batch_size=6):
        opt.zero_grad()
        loss = crit(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        vl = sum(crit(model(xb), yb).item() * len(xb) for xb, yb in DataLoader(val, batch_size=4)) / len(val)
        acc = sum((model(xb).argmax(1) == yb).sum().item() for xb, yb in DataLoader(val, batch_size=4))
    if vl < best:
        best = vl
        best_state = {k: v.clone() for k, v in model.state_dict().items()}
    print(f"epoch {epoch}: train {total / len(train):.5f} val {vl:.5f} acc {acc}/{len(val)}")
model.load_state_dict(best_state)
print(round(best, 5), model[0].bias.round(decimals=4))
