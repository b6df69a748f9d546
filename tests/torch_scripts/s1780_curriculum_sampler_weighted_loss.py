# Curriculum learning with a custom Sampler: examples ordered by a difficulty score
# (distance to the decision boundary), the visible pool growing each epoch, per-sample
# loss weights from class frequencies (reduction="none"), and per-epoch pool sizes
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Sampler, TensorDataset

rng = np.random.default_rng(1251)
X = torch.from_numpy(rng.standard_normal((60, 2)))
margin = X[:, 0] + 0.3 * X[:, 1]
Y = (margin > 0.4).long()
difficulty = (margin - 0.4).abs().neg()


class CurriculumSampler(Sampler[int]):
    def __init__(self, scores, start=0.3):
        self.order = torch.argsort(scores).tolist()
        self.frac = start

    def __iter__(self):
        return iter(self.order[: int(len(self.order) * self.frac)])

    def __len__(self):
        return int(len(self.order) * self.frac)


sampler = CurriculumSampler(difficulty)
loader = DataLoader(TensorDataset(X, Y), batch_size=8, sampler=sampler)
class_w = (len(Y) / (2 * torch.bincount(Y).double()))
print(torch.bincount(Y).tolist(), class_w.numpy().round(4))
model = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
with torch.no_grad():
    for q in model.parameters():
        q.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(q.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(5):
    sampler.frac = min(1.0, 0.3 + 0.2 * epoch)
    total, seen = 0.0, 0
    for xb, yb in loader:
        opt.zero_grad()
        loss = (F.cross_entropy(model(xb), yb, reduction="none") * class_w[yb]).mean()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
        seen += len(yb)
    with torch.no_grad():
        acc = (model(X).argmax(1) == Y).double().mean().item()
    print(epoch, len(sampler), seen, f"{total / seen:.6f}", f"{acc:.4f}")
print(sampler.order[:5], model[2].bias.detach().numpy().round(5))
