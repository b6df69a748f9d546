# register_buffer with persistent=False: in buffers(), not in state_dict; load_state_dict strictness
import torch
import torch.nn as nn

class Norm(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("mean", torch.zeros(n))
        self.register_buffer("cache", torch.ones(n), persistent=False)
        self.register_buffer("maybe", None)
        self.scale = nn.Parameter(torch.ones(n))

    def forward(self, x):
        return (x - self.mean) * self.scale * self.cache

m = Norm(3)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()], m.maybe)
print(m._non_persistent_buffers_set == {"cache"})
sd = {"mean": torch.tensor([1.0, 2.0, 3.0]), "scale": torch.tensor([2.0, 2.0, 2.0])}
print(m.load_state_dict(sd))
print(m(torch.tensor([1.0, 1.0, 1.0])))
r = m.load_state_dict({"mean": torch.zeros(3), "scale": torch.ones(3), "cache": torch.zeros(3)}, strict=False)
print(r.missing_keys, r.unexpected_keys)
try:
    m.load_state_dict({"mean": torch.zeros(3), "scale": torch.ones(3), "cache": torch.zeros(3)})
except RuntimeError as e:
    print(str(e))
m.double()
print(m.cache.dtype, m.mean.dtype)
