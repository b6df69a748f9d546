import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, vmap, grad

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * (i + 1)).view_as(p))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
X = torch.linspace(-1, 1, 15).view(5, 3)
Y = torch.tensor([0, 1, 1, 0, 1])

def sample_loss(params, buffers, x, y):
    out = functional_call(model, (params, buffers), (x.unsqueeze(0),))
    return F.cross_entropy(out, y.unsqueeze(0))

ps_grads = vmap(grad(sample_loss), in_dims=(None, None, 0, 0))(params, buffers, X, Y)
print({k: tuple(v.shape) for k, v in ps_grads.items()})
manual = []
for i in range(5):
    model.zero_grad()
    F.cross_entropy(model(X[i:i + 1]), Y[i:i + 1]).backward()
    manual.append(model[2].weight.grad.clone())
print(torch.allclose(ps_grads["2.weight"], torch.stack(manual)))
norms = torch.stack([g.flatten(1).norm(dim=1) for g in ps_grads.values()]).norm(dim=0)
print(norms.round(decimals=4))
clipped = {k: g * (1.0 / norms.clamp(min=1.0)).view(-1, *[1] * (g.dim() - 1)) for k, g in ps_grads.items()}
print(clipped["0.bias"].sum(0).round(decimals=5))
