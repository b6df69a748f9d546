# Linear probing of frozen features: a fixed random-feature extractor under
# torch.inference_mode, features cached into a TensorDataset, a logistic-regression probe
# with weight decay trained by epochs over a DataLoader, and per-class accuracy
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(1121)
C = 3
Xraw = torch.from_numpy(rng.standard_normal((90, 5)))
labels = torch.from_numpy(np.argmax(Xraw.numpy() @ rng.standard_normal((5, C)), 1))
backbone = nn.Sequential(nn.Linear(5, 32), nn.GELU(), nn.Linear(32, 16), nn.LayerNorm(16))
with torch.no_grad():
    for n, q in backbone.named_parameters():
        if q.dim() > 1:
            q.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(q.shape))))
        elif n == "0.bias" or n == "2.bias":
            q.zero_()
with torch.inference_mode():
    feats = backbone(Xraw)
print(feats.is_inference(), feats.requires_grad, feats.shape)
feats = feats.clone()
ds = TensorDataset(feats, labels)
loader = DataLoader(ds, batch_size=30)
probe = nn.Linear(16, C)
nn.init.zeros_(probe.weight)
nn.init.zeros_(probe.bias)
opt = torch.optim.SGD(probe.parameters(), lr=0.5, weight_decay=1e-3)
for epoch in range(6):
    tot = 0.0
    for fb, yb in loader:
        opt.zero_grad()
        loss = nn.functional.cross_entropy(probe(fb), yb)
        loss.backward()
        opt.step()
        tot += loss.item()
    print(epoch, f"{tot / len(loader):.6f}")
with torch.no_grad():
    pred = probe(feats).argmax(1)
for c in range(C):
    m = labels == c
    print(c, int(m.sum()), round((pred[m] == c).double().mean().item(), 4))
print(probe.bias.detach().numpy().round(5))
