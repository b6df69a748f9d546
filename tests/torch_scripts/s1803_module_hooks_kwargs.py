# module hooks: with_kwargs, prepend, always_call, global hooks, state_dict hooks
import torch
import torch.nn as nn
from torch.nn.modules.module import (register_module_forward_hook,
                                     register_module_forward_pre_hook)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)

    def forward(self, x, scale=1.0):
        return self.fc(x) * scale


net = Net()
with torch.no_grad():
    net.fc.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    net.fc.bias.zero_()
log = []


def pre_kw(mod, args, kwargs):
    log.append(("pre_kw", sorted(kwargs)))
    return args, {**kwargs, "scale": 2.0}


def fwd_kw(mod, args, kwargs, out):
    log.append(("fwd_kw", kwargs.get("scale")))
    return out + 1


h1 = net.register_forward_pre_hook(pre_kw, with_kwargs=True)
h2 = net.register_forward_hook(fwd_kw, with_kwargs=True)
h3 = net.register_forward_hook(lambda m, a, o: log.append("first"), prepend=True)
print(net(torch.ones(1, 2), scale=5.0))
print(log)
for h in (h1, h2, h3):
    h.remove()
log.clear()


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")


b = Boom()
b.register_forward_hook(lambda m, a, o: log.append("always"), always_call=True)
try:
    b(torch.ones(1))
except ValueError as e:
    print("ValueError", e, log)
g1 = register_module_forward_pre_hook(lambda m, a: log.append(("gpre", type(m).__name__)))
g2 = register_module_forward_hook(lambda m, a, o: log.append(("gfwd", type(m).__name__)))
log.clear()
net(torch.ones(1, 2))
print(log)
g1.remove()
g2.remove()
log.clear()
net(torch.ones(1, 2))
print(log)


def sd_hook(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "extra"] = torch.tensor(7.0)


net.register_state_dict_post_hook(sd_hook) if hasattr(net, "register_state_dict_post_hook") else net._register_state_dict_hook(sd_hook)
print(sorted(net.state_dict()))


def load_pre(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
    state_dict.pop(prefix + "extra", None)


net.register_load_state_dict_pre_hook(load_pre)
print(net.load_state_dict(net.state_dict()))
res = net.load_state_dict({"fc.weight": torch.zeros(2, 2)}, strict=False)
print(res.missing_keys, res.unexpected_keys)


def post_load(module, incompatible):
    incompatible.missing_keys.clear()


net.register_load_state_dict_post_hook(post_load)
print(net.load_state_dict({"fc.weight": torch.zeros(2, 2)}))
