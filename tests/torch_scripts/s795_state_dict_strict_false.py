# Loading checkpoints into a changed model: strict=False, missing/unexpected keys,
# renaming keys, prefix stripping ("module."), buffers in state_dict
import collections
import torch
import torch.nn as nn


class Old(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("mean", torch.zeros(3))


class New(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.head = nn.Linear(2, 1)
        self.register_buffer("mean", torch.zeros(3))
        self.register_buffer("scratch", torch.zeros(1), persistent=False)


torch.manual_seed(1)
old = Old()
sd = old.state_dict()
print(list(sd.keys()), type(sd).__name__)
new = New()
res = new.load_state_dict(sd, strict=False)
print(res)
print(res.missing_keys, res.unexpected_keys)
print(torch.equal(new.fc.weight, old.fc.weight))
try:
    new.load_state_dict(sd)
except RuntimeError as e:
    print(str(e).splitlines()[0])
wrapped = collections.OrderedDict(("module." + k, v) for k, v in sd.items())
try:
    Old().load_state_dict(wrapped)
except RuntimeError as e:
    print(str(e).splitlines()[0])
clean = {k.removeprefix("module."): v for k, v in wrapped.items()}
print(Old().load_state_dict(clean))
sd2 = dict(sd)
sd2["fc.weight"] = torch.zeros(5, 5)
try:
    Old().load_state_dict(sd2)
except RuntimeError as e:
    print(str(e))
print(list(New().state_dict().keys()))
