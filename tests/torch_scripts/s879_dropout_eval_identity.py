# Dropout facts that are deterministic: eval mode is identity, p=0 is identity, p=1 zeros,
# training-mode scaling keeps the surviving values at x/(1-p), functional training flag
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 9.0)
d = nn.Dropout(0.25)
d.eval()
print(torch.equal(d(x), x), d)
d.train()
y = d(x)
kept = y != 0
print(torch.allclose(y[kept], x[kept] / 0.75), y.shape)
print(torch.equal(nn.Dropout(0.0)(x), x), nn.Dropout(1.0)(x), F.dropout(x, 0.5, training=False))
print(torch.equal(F.dropout(x, p=0.3, training=False), x), F.dropout(x, p=1.0).sum())
z = F.dropout2d(torch.ones(2, 4, 3, 3), 0.5)
per_channel = z.view(2, 4, -1)
print(((per_channel == 0).all(-1) | (per_channel == 2).all(-1)).all())
try:
    nn.Dropout(1.5)
except ValueError as e:
    print("ValueError", e)
print(F.alpha_dropout(x, 0.2, training=False).equal(x), nn.Dropout(inplace=True))
