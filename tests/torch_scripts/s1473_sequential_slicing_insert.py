# Sequential indexing, slicing, append/insert/extend, len, and deleting a layer
import torch
import torch.nn as nn

s = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
print(len(s), type(s[-1]).__name__, type(s[:2]).__name__, len(s[1:]))
s.append(nn.Sigmoid())
s.insert(0, nn.Identity())
s.extend([nn.Identity()])
print([type(m).__name__ for m in s])
del s[0]
print([k for k in s._modules.keys()])
from collections import OrderedDict
named = nn.Sequential(OrderedDict([("fc", nn.Linear(1, 1)), ("act", nn.Tanh())]))
print(named.fc, named[1], list(named.state_dict().keys()))
