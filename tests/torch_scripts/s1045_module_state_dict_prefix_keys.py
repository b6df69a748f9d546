# state_dict keys of nested modules, loading into a wrapped model (prefix stripping), strict=False report, _metadata version
import torch
import torch.nn as nn
from collections import OrderedDict

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.bn = nn.BatchNorm1d(2)

class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.module = Block()

w = Wrapper()
sd = w.state_dict()
print(list(sd.keys()))
print(sd._metadata["module.bn"], sd._metadata[""])
stripped = OrderedDict((k.removeprefix("module."), v) for k, v in sd.items())
b = Block()
print(b.load_state_dict(stripped))
res = b.load_state_dict(sd, strict=False)
print(res.missing_keys[:2], len(res.unexpected_keys))
print(b.state_dict(prefix="enc.", keep_vars=False).keys().__len__(), list(b.state_dict(prefix="enc."))[0])
torch.save(sd, "/dev/null") if False else None
print(sorted(dict(b.named_parameters(prefix="p")).keys()))
