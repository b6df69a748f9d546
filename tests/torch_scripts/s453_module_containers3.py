import torch
import torch.nn as nn


class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Linear(2, 3)
        self.heads = nn.ModuleDict({"reg": nn.Linear(3, 1), "cls": nn.Sequential(nn.Linear(3, 2), nn.LogSoftmax(-1))})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(1) * k) for k in range(3)])
        self.register_buffer("running", torch.zeros(3))
        self.register_buffer("cache", torch.ones(2), persistent=False)

    def forward(self, x, head="reg"):
        h = torch.relu(self.trunk(x)) * self.scales[1]
        return self.heads[head](h)


m = Heads()
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()], [n for n, _ in m.named_modules()])
print(list(m.heads.keys()), len(m.scales), m.scales[2].item())
m.heads["extra"] = nn.Identity()
m.scales.append(nn.Parameter(torch.zeros(2)))
print(len(list(m.parameters())), list(m.heads), "extra" in m.heads)
counts = {}


def count(mod):
    counts[type(mod).__name__] = counts.get(type(mod).__name__, 0) + 1


m.apply(count)
print(sorted(counts.items()))
print(m.get_submodule("heads.cls.0"), m.get_parameter("scales.1").shape, m.get_buffer("cache"))
sd = m.state_dict()
m2 = Heads()
m2.heads["extra"] = nn.Identity()
m2.scales.append(nn.Parameter(torch.zeros(2)))
res = m2.load_state_dict(sd)
print(res, torch.equal(m2.trunk.weight, m.trunk.weight))
del sd["running"]
sd["bogus"] = torch.zeros(1)
res = m2.load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
try:
    m2.load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[0])
print(m.heads.pop("extra"), list(m.heads.items())[0][0], m)
