# ModuleDict/ModuleList operations: update, pop, insert, extend, slicing, keys order, repr
import torch
import torch.nn as nn

md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
md.update([("c", nn.Sigmoid())])
md["d"] = nn.Identity()
print(list(md.keys()), "a" in md, len(md))
print(type(md.pop("b")).__name__, list(md))
print(md)
ml = nn.ModuleList([nn.Linear(1, 1)])
ml.append(nn.ReLU()).extend([nn.Tanh(), nn.Sigmoid()])
ml.insert(1, nn.Identity())
print([type(m).__name__ for m in ml], type(ml[1:3]).__name__, len(ml[::2]))
del ml[0]
print(ml)
print(nn.ModuleList() + nn.ModuleList([nn.ReLU()]) if hasattr(nn.ModuleList, "__add__") else None)
seq = nn.Sequential(nn.ReLU(), nn.Tanh())
seq.append(nn.Sigmoid())
seq.insert(0, nn.Identity())
print(seq, seq.pop(1), len(seq))
