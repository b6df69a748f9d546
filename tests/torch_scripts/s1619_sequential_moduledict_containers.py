# module containers: Sequential with OrderedDict, ModuleDict/ModuleList ops, named_modules
import torch
import torch.nn as nn
from collections import OrderedDict

seq = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 3)), ("act", nn.ReLU()), ("out", nn.Linear(3, 1))]))
print(seq)
print(seq.fc.in_features, seq[-1].out_features, len(seq), type(seq[0:2]).__name__)
md = nn.ModuleDict({"a": nn.Tanh(), "b": nn.Sigmoid()})
md.update({"c": nn.ReLU()})
print(list(md.keys()), "b" in md, md.pop("a"), len(md))
ml = nn.ModuleList([nn.Linear(1, 1) for _ in range(2)])
ml.append(nn.Identity())
ml.extend([nn.Dropout(0.1)])
ml.insert(0, nn.ELU())
print([type(m).__name__ for m in ml], len(ml))
print([n for n, _ in seq.named_modules()], [n for n, _ in seq.named_children()])
print(sum(p.numel() for p in seq.parameters()), seq.get_submodule("out"))
seq.append(nn.Sigmoid())
del seq[1]
print(seq)
try:
    seq["missing"]
except (KeyError, TypeError, IndexError) as e:
    print(type(e).__name__)
