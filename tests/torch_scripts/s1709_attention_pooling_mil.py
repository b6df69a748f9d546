# Attention-based multiple-instance learning (Ilse et al.): gated attention over instances
# in a bag, softmax weights, bag embedding as weighted sum, BCE on bag labels; bags of
# different sizes handled one at a time with gradient accumulation
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(571)
bags, labels = [], []
for b in range(8):
    n = int(rng.integers(3, 7))
    x = rng.standard_normal((n, 5))
    lab = b % 2
    if lab:
        x[rng.integers(0, n)] += 2.0
    bags.append(torch.from_numpy(x))
    labels.append(float(lab))


class GatedAttentionMIL(nn.Module):
    def __init__(self, d=5, h=8):
        super().__init__()
        self.feat = nn.Sequential(nn.Linear(d, h), nn.ReLU())
        self.V = nn.Linear(h, 6)
        self.U = nn.Linear(h, 6)
        self.w = nn.Linear(6, 1)
        self.cls = nn.Linear(h, 1)

    def forward(self, bag):
        H = self.feat(bag)
        A = self.w(torch.tanh(self.V(H)) * torch.sigmoid(self.U(H)))
        A = F.softmax(A.T, dim=1)
        M = A @ H
        return self.cls(M).squeeze(), A


model = GatedAttentionMIL()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=1e-4)
for epoch in range(5):
    opt.zero_grad()
    total = 0.0
    for bag, y in zip(bags, labels):
        logit, _ = model(bag)
        loss = F.binary_cross_entropy_with_logits(logit, torch.tensor(y)) / len(bags)
        loss.backward()
        total += loss.item()
    opt.step()
    print(epoch, f"{total:.6f}")
with torch.no_grad():
    logit, A = model(bags[1])
print(A.numpy().round(4), torch.sigmoid(logit).item().__round__(5))
print(model.w.weight.grad.numpy().round(6))
