# load_state_dict strict=False report, missing/unexpected keys, shape mismatch error, assign=True
import torch
import torch.nn as nn

class A(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(2, 3)
        self.dec = nn.Linear(3, 2)
        self.register_buffer("steps", torch.tensor(0))

a = A()
sd = {"enc.weight": torch.ones(3, 2), "enc.bias": torch.zeros(3), "extra.w": torch.ones(1)}
res = a.load_state_dict(sd, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(res)
try:
    a.load_state_dict(sd)
except RuntimeError as e:
    print(str(e))
bad = dict(a.state_dict())
bad["dec.weight"] = torch.zeros(5, 5)
try:
    a.load_state_dict(bad)
except RuntimeError as e:
    print(str(e))
new = {k: v.clone() + 1 for k, v in a.state_dict().items()}
a.load_state_dict(new, assign=True)
print(a.enc.bias, a.steps, type(a.enc.weight).__name__, a.enc.weight.requires_grad)
