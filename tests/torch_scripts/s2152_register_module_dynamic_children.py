import torch
import torch.nn as nn

class Tower(nn.Module):
    def __init__(self, widths):
        super().__init__()
        for i, (a, b) in enumerate(zip(widths[:-1], widths[1:])):
            self.register_module(f"layer{i}", nn.Linear(a, b))
            self.add_module(f"act{i}", nn.Tanh())
    def forward(self, x):
        for m in self.children():
            x = m(x)
        return x

t = Tower([3, 4, 2])
print([n for n, _ in t.named_children()])
print(t)
del t.act1
print([n for n, _ in t.named_children()])
t.head = nn.Linear(2, 1)
t.register_module("extra", None)
print([n for n, _ in t.named_children()], t.extra)
print(t.get_submodule("layer1").out_features)
try:
    t.add_module("bad.name", nn.ReLU())
except KeyError as e:
    print("KeyError", e)
try:
    t.register_module("layer0", "not a module")
except TypeError as e:
    print("TypeError", str(e)[:40])
md = nn.ModuleDict()
md.update({"b": nn.ReLU(), "a": nn.Sigmoid()})
md["c"] = nn.Identity()
print(list(md.keys()), "a" in md, len(md))
popped = md.pop("b")
print(type(popped).__name__, list(md))
ml = nn.ModuleList([nn.ReLU()])
ml.extend([nn.Tanh(), nn.GELU()])
ml.insert(1, nn.Sigmoid())
print([type(m).__name__ for m in ml], type(ml[1:]).__name__)
with torch.no_grad():
    for p in t.parameters():
        p.fill_(0.1)
print(t(torch.ones(1, 3)).shape)
