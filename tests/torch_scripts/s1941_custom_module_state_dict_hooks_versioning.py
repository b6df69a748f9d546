# Checkpoint compatibility code from a long-lived repo: a module whose
# _load_from_state_dict renames legacy keys (using _version in the metadata), state-dict
# pre/post hooks, register_load_state_dict_post_hook reporting missing keys, strict=False
# results, and get_extra_state/set_extra_state carrying a config through save/load
import io
import torch
import torch.nn as nn


class Block(nn.Module):
    _version = 2

    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 2)
        self.register_buffer("scale", torch.tensor(1.5))
        self.config = {"act": "relu", "width": 2}

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        version = local_metadata.get("version", None)
        if version is None or version < 2:
            for old, new in (("fc.weight", "proj.weight"), ("fc.bias", "proj.bias")):
                if prefix + old in state_dict:
                    state_dict[prefix + new] = state_dict.pop(prefix + old)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys,
                                      unexpected_keys, error_msgs)

    def get_extra_state(self):
        return dict(self.config)

    def set_extra_state(self, state):
        self.config = state


net = nn.Sequential(Block(), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float64).view_as(p) * 0.1 + i)
sd = net.state_dict()
print(list(sd), sd._metadata["0"])
legacy = {("0.fc." + k[len("0.proj."):] if k.startswith("0.proj.") else k): (v.clone() if torch.is_tensor(v) else v)
          for k, v in sd.items()}
legacy = type(sd)(legacy)
legacy._metadata = {"": {"version": 1}, "0": {"version": 1}}
fresh = nn.Sequential(Block(), nn.ReLU(), nn.Linear(2, 1))
fresh[0].config = {}
seen = []
fresh.register_load_state_dict_post_hook(lambda m, keys: seen.append((list(keys.missing_keys), list(keys.unexpected_keys))))
print(fresh.load_state_dict(legacy))
print(torch.equal(fresh[0].proj.weight, net[0].proj.weight), fresh[0].config, seen)
partial = {k: v for k, v in sd.items() if not k.startswith("2.")}
partial["extra.thing"] = torch.zeros(1)
res = fresh.load_state_dict(partial, strict=False)
print(res.missing_keys, res.unexpected_keys, seen[-1])
try:
    fresh.load_state_dict(partial)
except RuntimeError as e:
    print("RuntimeError", str(e).splitlines()[0])
    print(len(str(e).splitlines()))
buf = io.BytesIO()
torch.save(net.state_dict(), buf)
buf.seek(0)
back = torch.load(buf, weights_only=False)
print(back["0._extra_state"], back._metadata["0"]["version"])


def drop_scale(module, state_dict, prefix, local_metadata):
    state_dict.pop(prefix + "0.scale", None)


net.register_state_dict_post_hook(drop_scale)
print(list(net.state_dict()))
