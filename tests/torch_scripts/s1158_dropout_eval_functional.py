# Dropout family in eval mode and with p=0/p=1, F.dropout training flag, inplace, shapes
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1.0, 7.0).view(2, 3)
for m in (nn.Dropout(0.5), nn.Dropout1d(0.3), nn.Dropout2d(0.3), nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(0.2)):
    m.eval()
    print(type(m).__name__, torch.equal(m(x.view(1, 2, 3) if "1d" in type(m).__name__ else x), x.view(1, 2, 3) if "1d" in type(m).__name__ else x), m)
print(F.dropout(x, p=0.5, training=False), F.dropout(x, p=0.0), F.dropout(x, p=1.0))
y = x.clone()
F.dropout(y, p=1.0, training=True, inplace=True)
print(y)
d = nn.Dropout(p=1.0)
print(d(x), d.eval()(x).sum())
try:
    nn.Dropout(1.5)
except ValueError as e:
    print("ValueError:", e)
print(F.alpha_dropout(x, 0.5, training=False), F.dropout2d(torch.ones(1, 2, 2, 2), 0.0))
