import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

g = torch.linspace(-2, 2, 40)
X = torch.stack([g, torch.sin(3 * g)], 1)
y = (X[:, 0] * X[:, 1] > 0).long()
ds = TensorDataset(X, y)
loader = DataLoader(ds, batch_size=10, shuffle=False)
model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Dropout(0.0), nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 1.3 + i).reshape(p.shape) * 0.5)
opt = torch.optim.Adam(model.parameters(), lr=0.05, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
crit = nn.CrossEntropyLoss()
for epoch in range(4):
    model.train()
    total, correct, running = 0, 0, 0.0
    for xb, yb in loader:
        opt.zero_grad(set_to_none=True)
        logits = model(xb)
        loss = crit(logits, yb)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        running += loss.item() * xb.size(0)
        correct += (logits.argmax(1) == yb).sum().item()
        total += yb.numel()
    sched.step()
    print(f"epoch {epoch} loss {running / total:.4f} acc {correct / total:.3f} lr {sched.get_last_lr()[0]:.4f}")
model.eval()
with torch.inference_mode():
    probs = model(X).softmax(-1)
print(probs[:3].round(decimals=4), probs.argmax(1).bincount())
