import copy
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state, vmap, grad


class MLP(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.fc1 = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4)
        self.fc2 = nn.Linear(4, 1)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.5 + k + i).view_as(p) * 0.4)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


models = [MLP(k).eval() for k in range(3)]
params, buffers = stack_module_state(models)
print(sorted(params.keys()), params["fc1.weight"].shape, sorted(buffers.keys()))
base = copy.deepcopy(models[0]).to("meta")
x = torch.linspace(-1, 1, 15).view(5, 3)


def fmodel(p, b, x):
    return functional_call(base, (p, b), (x,))


out = vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
print(out.shape, torch.allclose(out[1], models[1](x)))
m = models[0]
p0 = {k: v.detach() for k, v in m.named_parameters()}
y = functional_call(m, p0, x)
print(torch.allclose(y, m(x)))
newp = {k: v * 0 for k, v in p0.items()}
print(functional_call(m, newp, (x,)).abs().sum().item(), m.fc1.weight.abs().sum().item() > 0)


def loss(p, x, t):
    return ((functional_call(m, p, (x,)) - t) ** 2).mean()


t = torch.ones(5, 1)
g = grad(loss)(p0, x, t)
print(sorted(g.keys()), g["fc2.bias"])
per = vmap(grad(loss), in_dims=(None, 0, 0))(p0, x.unsqueeze(1), t.unsqueeze(1))
print(per["fc1.weight"].shape, torch.allclose(per["fc2.bias"].mean(0), g["fc2.bias"]))
part = functional_call(m, {"fc2.bias": torch.tensor([10.0])}, x, strict=False)
print(torch.allclose(part - m(x), torch.full((5, 1), 10.0) - m.fc2.bias))
try:
    functional_call(m, {"fc2.bias": torch.tensor([10.0])}, x, strict=True)
except RuntimeError as e:
    print("RuntimeError")
m.train()
bs = {k: v.clone() for k, v in m.named_buffers()}
functional_call(m, {**p0, **bs}, (x,))
print(bs["bn.num_batches_tracked"], m.bn.num_batches_tracked, bs["bn.running_mean"].abs().sum().item() > 0)
