# A full classification loop, as pasted from a blog: train/val split, accuracy, confusion matrix,
# scheduler, best-model copy with deepcopy(state_dict), history dict
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

n = 90
t = torch.arange(n, dtype=torch.float64)
X = torch.stack([torch.sin(t * 0.3), torch.cos(t * 0.7), torch.sin(t * 1.1) * 0.5], 1)
y = torch.remainder(t, 3).long()
X = X + 0.8 * F.one_hot(y, 3).double()
train_ds = TensorDataset(X[:72], y[:72])
val_ds = TensorDataset(X[72:], y[72:])
train_loader = DataLoader(train_ds, batch_size=16)
val_loader = DataLoader(val_ds, batch_size=16)


class MLP(nn.Module):
    def __init__(self, in_dim=3, hidden=16, n_classes=3):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                                    nn.Dropout(0.0), nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.layers(x)


model = MLP()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel(), dtype=p.dtype) * 1.7 + i).view_as(p))
criterion = nn.CrossEntropyLoss(label_smoothing=0.05)
optimizer = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=1e-2)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=10)
history = {"train_loss": [], "val_acc": []}
best_acc, best_wts = 0.0, copy.deepcopy(model.state_dict())
for epoch in range(10):
    model.train()
    epoch_loss, correct, total = 0.0, 0, 0
    for inputs, targets in train_loader:
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item() * inputs.size(0)
        _, preds = torch.max(outputs, 1)
        correct += torch.sum(preds == targets.data).item()
        total += targets.size(0)
    scheduler.step()
    model.eval()
    val_correct = 0
    with torch.no_grad():
        for inputs, targets in val_loader:
            val_correct += (model(inputs).argmax(1) == targets).sum().item()
    val_acc = val_correct / len(val_ds)
    history["train_loss"].append(epoch_loss / total)
    history["val_acc"].append(val_acc)
    if val_acc > best_acc:
        best_acc = val_acc
        best_wts = copy.deepcopy(model.state_dict())
    if epoch % 3 == 0:
        print(f"Epoch {epoch + 1}: train loss {epoch_loss / total:.4f} train acc {correct / total:.3f} val acc {val_acc:.3f}")
model.load_state_dict(best_wts)
print(f"Best val Acc: {best_acc:4f}", list(best_wts.keys())[:4])
with torch.no_grad():
    preds = model(X[72:]).argmax(1)
conf = torch.zeros(3, 3, dtype=torch.long)
for tl, pl in zip(y[72:], preds):
    conf[tl, pl] += 1
print(conf)
print(torch.bincount(y[72:] * 3 + preds, minlength=9).view(3, 3).equal(conf))
print(model.layers[1].running_mean.shape, model.layers[1].num_batches_tracked)
