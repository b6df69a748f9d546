# DP-SGD style per-sample gradients with torch.func (the Opacus tutorial's recipe):
# functional_call + grad + vmap over the batch, per-sample norm clipping, summed and
# averaged with deterministic "noise" of zero, compared against a loop of backward calls
import torch
import torch.nn as nn
from torch.func import functional_call, grad, vmap

model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.1 + i).view_as(p) * 0.6)
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.cos(torch.arange(20, dtype=torch.float64) * 0.7).view(5, 4)
y = torch.tensor([0, 2, 1, 1, 0])


def loss_one(p, xi, yi):
    out = functional_call(model, p, (xi.unsqueeze(0),))
    return nn.functional.cross_entropy(out, yi.unsqueeze(0))


per = vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)
print({k: tuple(v.shape) for k, v in per.items()})
norms = torch.sqrt(sum(v.flatten(1).pow(2).sum(1) for v in per.values()))
print(norms.numpy().round(6))
C = 0.5
factor = (C / (norms + 1e-6)).clamp(max=1.0)
clipped = {k: (v * factor.view(-1, *[1] * (v.dim() - 1))).sum(0) / len(x) for k, v in per.items()}
loop = []
for i in range(len(x)):
    model.zero_grad()
    nn.functional.cross_entropy(model(x[i:i + 1]), y[i:i + 1]).backward()
    loop.append(model[0].weight.grad.clone())
print(torch.allclose(torch.stack(loop), per["0.weight"]))
with torch.no_grad():
    for k, p in model.named_parameters():
        p -= 0.1 * clipped[k]
print(f"{nn.functional.cross_entropy(model(x), y).item():.6f}", factor.numpy().round(5))
