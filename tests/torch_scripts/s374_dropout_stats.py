import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(200, 50)
d = nn.Dropout(p=0.3)
y = d(x)
frac = (y == 0).float().mean().item()
print(abs(frac - 0.3) < 0.05, set(torch.unique(y).tolist()) <= {0.0, 1 / 0.7}, round(1 / 0.7, 6))
d.eval()
print(torch.equal(d(x), x))
y2 = F.dropout(x, 0.5, training=True)
print(abs(y2.mean().item() - 1) < 0.05)
xi = torch.ones(4, 6, 5, 5)
y3 = nn.Dropout2d(0.5)(xi)
per = y3.view(4, 6, -1)
print(bool(((per == 0).all(-1) | (per == 2).all(-1)).all()))
ad = nn.AlphaDropout(0.2)
z = torch.randn(2000)
out = ad(z)
print(abs(out.mean().item()) < 0.15, abs(out.std().item() - 1) < 0.15)
x.requires_grad_(True)
y = F.dropout(x, 0.3)
y.sum().backward()
print(torch.equal(x.grad == 0, y == 0), set(torch.unique(x.grad).tolist()) <= {0.0, 1 / 0.7})
print(torch.equal(F.dropout(x, 0.0), x), (F.dropout(x, 1.0) == 0).all())
try:
    nn.Dropout(1.5)
except ValueError as e:
    print("ValueError:", e)
print(nn.Dropout(0.1, inplace=True), nn.Dropout1d(0.2), nn.FeatureAlphaDropout(0.3))
fa = nn.FeatureAlphaDropout(0.5)(torch.randn(4, 8, 10))
print(fa.shape)
