# per-sample gradients with torch.func: vmap(grad(loss)) over functional_call
import torch
import torch.nn as nn
from torch.func import functional_call, vmap, grad

model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.0, -0.1]]))
    model.bias.copy_(torch.tensor([0.05, -0.05]))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0], [2.0, -2.0, 1.0], [0.0, 0.0, 1.0]])
y = torch.tensor([0, 1, 1, 0])

def loss_one(p, xi, yi):
    logits = functional_call(model, p, (xi.unsqueeze(0),))
    return nn.functional.cross_entropy(logits, yi.unsqueeze(0))

per = vmap(grad(loss_one), in_dims=(None, 0, 0))(params, x, y)
print(sorted(per), {k: tuple(v.shape) for k, v in per.items()})
print(per["bias"].round(decimals=6))
model.zero_grad()
nn.functional.cross_entropy(model(x), y, reduction="sum").backward()
print(torch.allclose(per["weight"].sum(0), model.weight.grad), torch.allclose(per["bias"].sum(0), model.bias.grad))
