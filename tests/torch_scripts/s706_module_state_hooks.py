import torch
import torch.nn as nn


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_parameter("gain", nn.Parameter(torch.tensor(2.0)))
        self.register_parameter("unused", None)
        self.register_buffer("count", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        self.count += 1
        return self.lin(x) * self.gain


m = Scaled()
print([n for n, _ in m.named_parameters()], "unused" in m._parameters, m.unused)
seen = []
m.register_state_dict_post_hook(lambda mod, sd, prefix, local_metadata: seen.append(sorted(sd)[:2]))
sd = m.state_dict()
print(seen, list(sd))
m.register_load_state_dict_post_hook(lambda mod, keys: seen.append(("loaded", keys.missing_keys)))
print(m.load_state_dict(sd))
print(seen[-1])
m(torch.ones(1, 2))
m(torch.ones(1, 2))
print(m.count, m.state_dict()["count"])
m.zero_grad()
print(m.gain.grad)
m2 = Scaled()
m2.load_state_dict(m.state_dict(), assign=True)
print(m2.count, m2.lin.weight is not m.lin.weight)
print(nn.Module.__call__ is not None, m.extra_repr() == "", repr(m).splitlines()[0])
m.requires_grad_(False)
print([p.requires_grad for p in m.parameters()])
sd2 = m.state_dict(prefix="model.", keep_vars=True)
print(list(sd2)[:2], type(sd2["model.gain"]).__name__)
m.register_module("extra", nn.ReLU())
print([n for n, _ in m.named_children()])
delattr(m, "extra")
print(hasattr(m, "extra"), m.training, m.eval().training, m.train(False).training)
