# DP-SGD step: per-sample gradients by vmap, per-sample clipping, then averaging
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, grad

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.3]])); model.bias.fill_(0.1)
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.0, 0.5]])
y = torch.tensor([1.0, 0.0, 1.0])

def loss(p, xi, yi):
    out = functional_call(model, p, (xi[None],)).squeeze()
    return nn.functional.binary_cross_entropy_with_logits(out, yi)

g = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)
norms = torch.sqrt(sum(v.flatten(1).pow(2).sum(1) for v in g.values()))
factor = (1.0 / norms).clamp(max=1.0)
clipped = {k: (v * factor.view(-1, *[1] * (v.dim() - 1))).mean(0) for k, v in g.items()}
print(norms.round(decimals=6), factor.round(decimals=6))
print({k: v.round(decimals=6) for k, v in clipped.items()})
