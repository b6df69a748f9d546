import torch
import torch.nn as nn
from collections import OrderedDict

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.register_buffer("count", torch.tensor(0))

net = Net()
with torch.no_grad():
    net.fc.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    net.fc.bias.copy_(torch.tensor([0.5, -0.5]))

def post_sd(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "extra_info"] = torch.tensor(7)
net.register_state_dict_post_hook(post_sd)
sd = net.state_dict()
print(list(sd.keys()))
print(sd["extra_info"])

def pre_load(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    state_dict.pop(prefix + "extra_info", None)
    if prefix + "fc.w" in state_dict:
        state_dict[prefix + "fc.weight"] = state_dict.pop(prefix + "fc.w")
net2 = Net()
net2.register_load_state_dict_pre_hook(pre_load)
old = OrderedDict((k.replace("fc.weight", "fc.w"), v) for k, v in sd.items())
res = net2.load_state_dict(old)
print(res.missing_keys, res.unexpected_keys)
print(net2.fc.weight)

post_calls = []
def post_load(module, incompatible):
    post_calls.append((list(incompatible.missing_keys), list(incompatible.unexpected_keys)))
net3 = Net()
net3.register_load_state_dict_post_hook(post_load)
partial = {"fc.weight": sd["fc.weight"], "fc.bias": sd["fc.bias"], "bogus": torch.zeros(1)}
r = net3.load_state_dict(partial, strict=False)
print(r)
print(post_calls)
print(net3.count, net3.fc.bias)
sd2 = net.state_dict(prefix="model.", keep_vars=True)
print(list(sd2), sd2["model.fc.weight"].requires_grad)
