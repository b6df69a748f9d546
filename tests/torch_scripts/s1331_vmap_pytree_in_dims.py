# vmap with dict/tuple pytrees and nested in_dims specs
import torch
from torch.func import vmap

def f(d, t):
    return d["a"] * t[0] + d["b"] - t[1]

d = {"a": torch.tensor([[1.0, 2.0], [3.0, 4.0]]), "b": torch.tensor(10.0)}
t = (torch.tensor([1.0, -1.0]), torch.tensor([0.5, 0.5]))
print(vmap(f, in_dims=({"a": 0, "b": None}, (0, None)))(d, t))
print(vmap(f, in_dims=({"a": 1, "b": None}, (None, None)))(d, t))
out = vmap(lambda x: {"sq": x ** 2, "neg": -x})(torch.tensor([1.0, 2.0, 3.0]))
print(sorted(out), out["sq"], out["neg"])
