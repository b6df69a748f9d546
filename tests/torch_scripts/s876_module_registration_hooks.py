# Module state hooks: state_dict post hook adding a key, load_state_dict pre hook renaming old
# keys (a checkpoint-migration trick), load_state_dict post hook, _register_state_dict_hook
import torch
import torch.nn as nn

lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0]]))
    lin.bias.fill_(3.0)
old_ckpt = {"w": torch.tensor([[5.0, 6.0]]), "b": torch.tensor([7.0])}


def migrate(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
    for old, new in (("w", "weight"), ("b", "bias")):
        if prefix + old in state_dict:
            state_dict[prefix + new] = state_dict.pop(prefix + old)


lin._register_load_state_dict_pre_hook(migrate, with_module=True)
print(lin.load_state_dict(old_ckpt), lin.weight, lin.bias)
posts = []
lin.register_load_state_dict_post_hook(lambda m, keys: posts.append((list(keys.missing_keys), list(keys.unexpected_keys))))
lin.load_state_dict({"weight": torch.zeros(1, 2), "bias": torch.zeros(1)})
print(posts)


def add_version(module, state_dict, prefix, local_metadata):
    state_dict[prefix + "version"] = torch.tensor(2)


lin._register_state_dict_hook(add_version)
print(list(lin.state_dict().keys()))
seq = nn.Sequential(lin)
print(list(seq.state_dict().keys()), seq.state_dict()["0.version"])
print(lin.state_dict()._metadata if hasattr(lin.state_dict(), "_metadata") else None)


def replace(module, state_dict, prefix, local_metadata):
    return {k: v * 0 for k, v in state_dict.items()}


root = nn.Linear(1, 1)
root._register_state_dict_hook(replace)
print(type(root.state_dict()).__name__, root.state_dict())
outer = nn.Sequential(root)
print(type(outer.state_dict()).__name__, list(outer.state_dict()))
root.register_state_dict_post_hook(lambda m, sd, p, meta: 1)
try:
    root.state_dict()
except RuntimeError as e:
    print(e)
