import copy
import io
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

n = 64
X = torch.stack([torch.sin(torch.arange(n) * 0.3), torch.cos(torch.arange(n) * 0.7), torch.linspace(-1, 1, n)], 1)
Y = ((X[:, 0] + X[:, 1] * X[:, 2]) > 0).long()
train_ds = TensorDataset(X[:48], Y[:48])
val_ds = TensorDataset(X[48:], Y[48:])
train_dl = DataLoader(train_ds, batch_size=16)
val_dl = DataLoader(val_ds, batch_size=16)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.0), nn.Linear(16, 2))

    def forward(self, x):
        return self.net(x)


model = MLP()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.3 + i).reshape(p.shape) * 0.5)
optimizer = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=1e-3)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, patience=1, factor=0.5)
best_loss, best_state, patience, bad = float('inf'), None, 3, 0
accum = 2
for epoch in range(8):
    model.train()
    running = 0.0
    optimizer.zero_grad()
    for i, (xb, yb) in enumerate(train_dl):
        loss = F.cross_entropy(model(xb), yb) / accum
        loss.backward()
        running += loss.item() * accum
        if (i + 1) % accum == 0 or i + 1 == len(train_dl):
            optimizer.step()
            optimizer.zero_grad()
    model.eval()
    correct, val_loss = 0, 0.0
    with torch.no_grad():
        for xb, yb in val_dl:
            out = model(xb)
            val_loss += F.cross_entropy(out, yb, reduction='sum').item()
            correct += (out.argmax(1) == yb).sum().item()
    val_loss /= len(val_ds)
    scheduler.step(val_loss)
    print(f"epoch {epoch} train {running / len(train_dl):.5f} val {val_loss:.5f} acc {correct / len(val_ds):.3f} lr {optimizer.param_groups[0]['lr']:.4f}")
    if val_loss < best_loss - 1e-4:
        best_loss, bad = val_loss, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad += 1
        if bad >= patience:
            print('early stop at', epoch)
            break
model.load_state_dict(best_state)
buf = io.BytesIO()
torch.save({'state': model.state_dict(), 'best': best_loss}, buf)
buf.seek(0)
ck = torch.load(buf)
fresh = MLP()
fresh.load_state_dict(ck['state'])
fresh.eval(); model.eval()
print(round(ck['best'], 5), torch.equal(fresh(X), model(X)), fresh.net[1].num_batches_tracked)
with torch.no_grad():
    probs = F.softmax(fresh(X[:4]), dim=1)
print(probs.sum(1).round(decimals=6), probs.argmax(1), probs.max(1).values.round(decimals=4))
