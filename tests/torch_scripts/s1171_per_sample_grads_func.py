# Per-sample gradients with torch.func: vmap(grad(functional_call)) over a batch, compared with a loop
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, grad

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=p.dtype) + i).view_as(p) / 2)
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
X = torch.linspace(-1, 1, 15).view(5, 3)
Y = torch.tensor([0, 1, 1, 0, 1])

def loss_fn(p, b, x, y):
    out = functional_call(model, (p, b), (x.unsqueeze(0),))
    return nn.functional.cross_entropy(out, y.unsqueeze(0))

per = vmap(grad(loss_fn), in_dims=(None, None, 0, 0))(params, buffers, X, Y)
print({k: tuple(v.shape) for k, v in per.items()})
loop = []
for n in range(5):
    model.zero_grad()
    nn.functional.cross_entropy(model(X[n:n + 1]), Y[n:n + 1]).backward()
    loop.append(model[2].weight.grad.clone())
print(torch.allclose(torch.stack(loop), per["2.weight"]))
print(torch.round(per["2.bias"], decimals=6))
