# State-dict hooks: register_state_dict_pre_hook, register_load_state_dict_post_hook, _register_state_dict_hook
import torch
import torch.nn as nn

m = nn.Linear(2, 1)
calls = []
m.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: calls.append(("pre", prefix, keep_vars)))
def post(module, incompatible_keys):
    calls.append(("post", list(incompatible_keys.missing_keys), list(incompatible_keys.unexpected_keys)))
    incompatible_keys.unexpected_keys.clear()
m.register_load_state_dict_post_hook(post)
net = nn.Sequential(m)
keys = list(net.state_dict(prefix="model.").keys())
print(keys, calls)
calls.clear()
print(net.load_state_dict({"0.weight": torch.ones(1, 2), "0.bias": torch.zeros(1), "junk": torch.ones(1)}, strict=False))
print(calls)
print(m.weight)
sd = net.state_dict(keep_vars=True)
print(type(sd["0.weight"]).__name__, sd["0.weight"].requires_grad)
