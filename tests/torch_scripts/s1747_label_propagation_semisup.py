# Semi-supervised learning: pseudo-labels from a teacher's confident predictions
# (softmax max > threshold) combined with labeled cross entropy, consistency loss between
# two fixed "augmentations" (NumPy noise), FixMatch-style masking by confidence
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(941)
centers = np.array([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.5]])
lab_idx = np.repeat(np.arange(3), 3)
Xl = torch.from_numpy(centers[lab_idx] + 0.5 * rng.standard_normal((9, 2)))
yl = torch.from_numpy(lab_idx)
Xu = torch.from_numpy(centers[rng.integers(0, 3, 60)] + 0.5 * rng.standard_normal((60, 2)))

model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 3))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(p.shape))))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
tau, lam = 0.8, 1.0
for it in range(10):
    weak = Xu + 0.05 * torch.from_numpy(rng.standard_normal((60, 2)))
    strong = Xu + 0.4 * torch.from_numpy(rng.standard_normal((60, 2)))
    with torch.no_grad():
        probs = F.softmax(model(weak), dim=1)
        conf, pseudo = probs.max(1)
        mask = (conf >= tau).double()
    sup = F.cross_entropy(model(Xl), yl)
    unsup = (F.cross_entropy(model(strong), pseudo, reduction="none") * mask).mean()
    loss = sup + lam * unsup
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 3 == 0:
        print(it, f"sup {sup.item():.5f} unsup {unsup.item():.5f} mask {mask.mean().item():.3f}")
with torch.no_grad():
    pred = model(Xu).argmax(1)
print(torch.bincount(pred, minlength=3).tolist(), model[2].bias.detach().numpy().round(5))
