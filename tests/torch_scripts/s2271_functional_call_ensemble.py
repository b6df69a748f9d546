import copy
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap, grad


class SimpleMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def fixed(m, k):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (k + 1) / (i + 2))
    return m


models = [fixed(SimpleMLP(), k) for k in range(3)]
params, buffers = stack_module_state(models)
print({k: tuple(v.shape) for k, v in params.items()})
base_model = copy.deepcopy(models[0]).to('meta')
print(base_model.fc1.weight.shape, base_model.fc1.weight.dtype)


def fmodel(params, buffers, x):
    return functional_call(base_model, (params, buffers), (x,))


minibatch = torch.linspace(-2, 2, 20).view(5, 4)
out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, minibatch)
print(out.shape)
expected = torch.stack([m(minibatch) for m in models])
print(torch.allclose(out, expected))
model = models[1]
p = {k: v.detach() for k, v in model.named_parameters()}


def loss_fn(p, x, t):
    y = functional_call(model, p, (x.unsqueeze(0),))
    return nn.functional.cross_entropy(y, t.unsqueeze(0))


targets = torch.tensor([0, 1, 2, 0, 1])
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(p, minibatch, targets)
print({k: tuple(v.shape) for k, v in per_sample.items()})
model.zero_grad()
nn.functional.cross_entropy(model(minibatch), targets, reduction='sum').backward()
print(all(torch.allclose(per_sample[k].sum(0), v.grad) for k, v in model.named_parameters()))
