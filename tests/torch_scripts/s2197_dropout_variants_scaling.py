import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
x = torch.ones(4, 6, 5)
for name, layer in [("Dropout", nn.Dropout(0.25)), ("Dropout1d", nn.Dropout1d(0.25)),
                    ("Dropout2d", nn.Dropout2d(0.25))]:
    layer.train()
    y = layer(x)
    vals = sorted(set(y.flatten().tolist()))
    print(name, [round(v, 6) for v in vals], y.shape)
    layer.eval()
    print(name, torch.equal(layer(x), x))
d1 = nn.Dropout1d(0.5)(x)
chan_const = (d1 == d1[..., :1]).all().item()
print("whole channels", chan_const)
img = torch.ones(2, 3, 4, 4)
d2 = F.dropout2d(img, 0.5, training=True)
print("2d channels", bool((d2.flatten(2).std(-1) == 0).all()))
ad = nn.AlphaDropout(0.2)
ad.eval()
print(torch.equal(ad(x), x))
print(F.alpha_dropout(x, 0.0, training=True).equal(x), F.feature_alpha_dropout(x, 0.5, training=False).equal(x))
print(F.dropout(x, p=1.0).abs().sum().item(), F.dropout(x, 0.5, training=False).sum().item())
inp = torch.ones(3, requires_grad=True)
out = nn.Dropout(0.0)(inp)
out.sum().backward()
print(inp.grad, out.grad_fn is not None)
xi = torch.ones(8)
F.dropout(xi, 0.5, training=True, inplace=True)
print(sorted(set(xi.tolist())) in ([0.0, 2.0], [0.0], [2.0]))
try:
    nn.Dropout(1.5)
except ValueError as e:
    print("ValueError:", e)
print(nn.Dropout2d(0.3, inplace=True))
