# nn.Sequential as a list: slicing, append/insert/extend/pop, + and * of Sequentials, named
# modules from an OrderedDict, indexing by negative ints, deleting, len, reversed
import collections
import torch
import torch.nn as nn

s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(len(s), s[-1], type(s[:2]).__name__, s[:2])
s.append(nn.Sigmoid())
s.insert(0, nn.Identity())
s.extend([nn.Tanh()])
print(s)
print(s.pop(0), len(s))
del s[-1]
print([type(m).__name__ for m in s], [type(m).__name__ for m in reversed(s)] if hasattr(s, "__reversed__") else None)
a = nn.Sequential(nn.ReLU())
b = nn.Sequential(nn.Tanh(), nn.Sigmoid())
print(a + b)
print(len(a * 3), a * 2)
od = nn.Sequential(collections.OrderedDict([("enc", nn.Linear(2, 2)), ("act", nn.GELU()), ("dec", nn.Linear(2, 1))]))
print(od, od.enc, od[1], [n for n, _ in od.named_children()])
od[1] = nn.SiLU()
print(od.act)
with torch.no_grad():
    for p in od.parameters():
        p.fill_(0.25)
print(od(torch.ones(1, 2)))
print(nn.Sequential()(torch.tensor([1.0])), len(nn.Sequential()))
try:
    s[10]
except IndexError as e:
    print("IndexError", e)
