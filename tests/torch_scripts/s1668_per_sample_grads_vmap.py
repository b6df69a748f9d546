# Per-sample gradients with torch.func (functional_call + grad + vmap), as in the tutorial,
# compared with a loop of per-example backward passes; then an ensemble with stack_module_state
import copy
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call, grad, vmap, stack_module_state


class SimpleCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 3, 3)
        self.fc = nn.Linear(3 * 4 * 4, 4)

    def forward(self, x):
        x = F.relu(self.conv(x))
        return self.fc(x.flatten(1))


model = SimpleCNN()
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(0.2 * torch.cos(torch.arange(p.numel()) * 0.57 + i).view_as(p))
rng = np.random.default_rng(181)
data = torch.from_numpy(rng.standard_normal((5, 1, 6, 6)))
targets = torch.from_numpy(rng.integers(0, 4, 5))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}


def compute_loss(params, buffers, sample, target):
    pred = functional_call(model, (params, buffers), (sample.unsqueeze(0),))
    return F.cross_entropy(pred, target.unsqueeze(0))


ft_grads = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
for name, g in ft_grads.items():
    print(name, tuple(g.shape))
loop = []
for i in range(5):
    model.zero_grad()
    F.cross_entropy(model(data[i:i + 1]), targets[i:i + 1]).backward()
    loop.append(model.fc.weight.grad.clone())
print("match", torch.allclose(torch.stack(loop), ft_grads["fc.weight"], atol=1e-12))
print(ft_grads["conv.bias"].numpy().round(6))

models = [copy.deepcopy(model) for _ in range(3)]
for k, m in enumerate(models):
    with torch.no_grad():
        for p in m.parameters():
            p.mul_(1 + 0.1 * k)
ens_params, ens_buffers = stack_module_state(models)
base = copy.deepcopy(models[0]).to("meta")


def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))


out = vmap(fmodel, in_dims=(0, 0, None))(ens_params, ens_buffers, data[:2])
print(out.shape, torch.allclose(out[2], models[2](data[:2])))
print(out[:, 0].detach().numpy().round(5))
