# Gradient accumulation over micro-batches (loss / accum_steps) gives the same update as one
# big batch; checked against a copy of the model trained on full batches
import copy
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(71)
X = torch.from_numpy(rng.standard_normal((32, 4)))
Y = torch.from_numpy(rng.integers(0, 3, 32))


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 10)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(10, 3)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


base = Classifier()
with torch.no_grad():
    for i, p in enumerate(base.parameters()):
        p.copy_(0.4 * torch.sin(torch.arange(p.numel()) * 0.53 + i).view_as(p))
m_acc, m_full = copy.deepcopy(base), copy.deepcopy(base)
opt_acc = torch.optim.SGD(m_acc.parameters(), lr=0.2, momentum=0.9)
opt_full = torch.optim.SGD(m_full.parameters(), lr=0.2, momentum=0.9)
crit = nn.CrossEntropyLoss()
accum_steps = 4
micro = DataLoader(TensorDataset(X, Y), batch_size=4)
full = DataLoader(TensorDataset(X, Y), batch_size=16)

for epoch in range(3):
    opt_acc.zero_grad()
    for i, (xb, yb) in enumerate(micro):
        loss = crit(m_acc(xb), yb) / accum_steps
        loss.backward()
        if (i + 1) % accum_steps == 0:
            opt_acc.step()
            opt_acc.zero_grad()
    for xb, yb in full:
        opt_full.zero_grad()
        crit(m_full(xb), yb).backward()
        opt_full.step()
    with torch.no_grad():
        la, lf = crit(m_acc(X), Y).item(), crit(m_full(X), Y).item()
    print(f"epoch {epoch} accum {la:.6f} full {lf:.6f}")

diffs = [(a - b).abs().max().item() for a, b in zip(m_acc.parameters(), m_full.parameters())]
print("max param diff < 1e-12", max(diffs) < 1e-12)
print(m_acc.fc2.bias.detach().numpy().round(6))
print(opt_acc.state[m_acc.fc2.bias]["momentum_buffer"].numpy().round(6))
