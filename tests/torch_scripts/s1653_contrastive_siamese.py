# Siamese embedding network trained with a contrastive (margin) loss on pairs and checked
# with TripletMarginLoss and F.cosine_similarity; pairwise_distance, F.normalize
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(41)
centers = rng.standard_normal((3, 6)) * 2
cls = np.repeat(np.arange(3), 8)
X = torch.from_numpy(centers[cls] + 0.5 * rng.standard_normal((24, 6)))
y = torch.from_numpy(cls)
pairs = rng.integers(0, 24, size=(40, 2))


class Embed(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 12), nn.ELU(), nn.Linear(12, 3))

    def forward(self, x):
        return self.body(x)


class ContrastiveLoss(nn.Module):
    def __init__(self, margin=2.0):
        super().__init__()
        self.margin = margin

    def forward(self, a, b, same):
        d = F.pairwise_distance(a, b)
        return torch.mean(same * d.pow(2) + (1 - same) * torch.clamp(self.margin - d, min=0).pow(2))


model = Embed()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(100 + i).normal(0, 0.5, tuple(p.shape))))
crit = ContrastiveLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5, weight_decay=1e-4)
i1, i2 = torch.from_numpy(pairs[:, 0]), torch.from_numpy(pairs[:, 1])
same = (y[i1] == y[i2]).double()
print("positive pairs", int(same.sum().item()))
for epoch in range(8):
    opt.zero_grad()
    loss = crit(model(X[i1]), model(X[i2]), same)
    loss.backward()
    opt.step()
    if epoch % 2 == 1:
        print(epoch, f"{loss.item():.5f}")

model.eval()
with torch.no_grad():
    e = F.normalize(model(X), dim=1)
    sim = e @ e.T
    print("within", sim[:8, :8].mean().item().__round__(4), "across", sim[:8, 8:].mean().item().__round__(4))
    trip = nn.TripletMarginLoss(margin=1.0, p=2)
    print("triplet", round(trip(model(X[0:4]), model(X[4:8]), model(X[8:12])).item(), 5))
    cs = F.cosine_similarity(model(X[:3]), model(X[8:11]), dim=1)
    print(cs.numpy().round(4))
    print(torch.cdist(e[:3], e[-3:]).numpy().round(4))
