# nn.Sequential indexing/slicing/append/insert/extend/pop/del, ModuleList ops and iteration order
import torch
import torch.nn as nn
from collections import OrderedDict

seq = nn.Sequential(OrderedDict([("fc1", nn.Linear(2, 3)), ("act", nn.ReLU()), ("fc2", nn.Linear(3, 1))]))
print(seq.fc1, seq[-1], len(seq))
print(seq[:2])
print(type(seq[1:]).__name__, list(seq[1:]._modules))
seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
seq.append(nn.Sigmoid())
print(list(seq._modules))
seq.insert(1, nn.Dropout(0.1))
print(list(seq._modules))
del seq[1]
print(list(seq._modules))
seq.extend([nn.Identity(), nn.Tanh()])
print(list(seq._modules))
print(seq.pop(0) if hasattr(seq, "pop") else None, list(seq._modules))
ml = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)])
ml.insert(0, nn.ReLU())
ml += [nn.Tanh()]
print([type(m).__name__ for m in ml], len(ml), type(ml[1:]).__name__)
print(ml.index(ml[2]) if hasattr(ml, "index") else None)
md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
md.update({"c": nn.Identity()})
print(list(md.keys()), "a" in md, md.pop("b"), list(md))
seq2 = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
seq2[0] = nn.Linear(2, 5)
print(seq2)
