# ModuleList / ModuleDict / ParameterList manipulation: insert, extend, slicing, pop, update,
# indexing with negative ints, len, `in`, and how they print
import torch
import torch.nn as nn

torch.manual_seed(0)
layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
layers.insert(1, nn.ReLU())
layers.extend([nn.Tanh(), nn.Sigmoid()])
print(len(layers), type(layers[-1]).__name__, type(layers[1:3]).__name__)
print(layers[1:3])
layers.append(nn.Identity())
del layers[0]
print(layers)
print(layers.pop(0) if hasattr(layers, "pop") else None)
d = nn.ModuleDict({"b": nn.Linear(1, 1), "a": nn.ReLU()})
d["c"] = nn.Tanh()
d.update({"z": nn.Identity()})
print(list(d.keys()), "a" in d, len(d))
print(d.pop("a"), list(d))
print(d)
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3))])
pl.append(nn.Parameter(torch.full((1,), 7.0)))
pl.extend([nn.Parameter(torch.ones(2, 2))])
print(len(pl), [p.shape for p in pl], sum(p.numel() for p in pl))
print(pl)
m = nn.Module()
m.pl = pl
m.d = d
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_modules()])
