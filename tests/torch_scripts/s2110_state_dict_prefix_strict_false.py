import torch
import torch.nn as nn
from collections import OrderedDict

class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(2, 3)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("cache", torch.zeros(3), persistent=False)

src = Enc()
with torch.no_grad():
    src.proj.weight.copy_(torch.arange(6.0).view(3, 2))
    src.proj.bias.fill_(0.5)
    src.scale.fill_(3.0)
sd = src.state_dict()
print(list(sd.keys()), type(sd).__name__)
print(list(src.state_dict(prefix="enc.").keys()))
kv = src.state_dict(keep_vars=True)
print(kv["proj.weight"].requires_grad, sd["proj.weight"].requires_grad)

dst = Enc()
extra = OrderedDict(sd)
extra["unused.thing"] = torch.ones(1)
del extra["scale"]
res = dst.load_state_dict(extra, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(dst.proj.weight.tolist(), dst.scale.item())
try:
    dst.load_state_dict(extra)
except RuntimeError as e:
    print("strict load failed:", "Missing key" in str(e), "Unexpected key" in str(e))
sd["proj.weight"][0, 0] = 100.0
print(src.proj.weight[0, 0].item())
wrapper = nn.ModuleDict({"enc": Enc()})
r = wrapper.load_state_dict({"enc." + k: v for k, v in src.state_dict().items()})
print(r, wrapper.enc.scale.item(), wrapper.enc.proj.bias.tolist())
