# Older checkpoint-compat code: _register_load_state_dict_pre_hook without the module (renaming
# keys from an old layout), and _register_state_dict_hook returning a filtered state_dict
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(2, 2)
        self._register_load_state_dict_pre_hook(self._rename)

    @staticmethod
    def _rename(state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
        for k in list(state_dict):
            if k.startswith(prefix + "fc."):
                state_dict[prefix + "proj." + k[len(prefix) + 3:]] = state_dict.pop(k)


model = nn.Sequential(Block(), Block())
old = {f"{i}.fc.{n}": torch.full(s, float(i + 1)) for i in range(2) for n, s in (("weight", (2, 2)), ("bias", (2,)))}
print(model.load_state_dict(old))
print(model[1].proj.weight, model[0].proj.bias)


def only_weights(module, state_dict, prefix, local_metadata):
    return type(state_dict)((k, v) for k, v in state_dict.items() if k.endswith("weight"))


model._register_state_dict_hook(only_weights)
print(list(model.state_dict().keys()))
model[0]._register_state_dict_hook(only_weights)
print(list(model[0].state_dict().keys()), list(model.state_dict().keys()))
