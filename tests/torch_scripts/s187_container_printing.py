from collections import OrderedDict

import torch
import torch.nn as nn

seq = nn.Sequential(OrderedDict([("fc1", nn.Linear(4, 8)), ("act", nn.GELU(approximate="tanh")),
                                 ("drop", nn.Dropout(0.25)), ("fc2", nn.Linear(8, 2, bias=False))]))
print(seq)
print(seq[1:], seq.fc1, seq[-1])
seq.append(nn.Softmax(dim=-1))
print(len(seq), [type(m).__name__ for m in seq])
plain = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
plain.insert(0, nn.Flatten())
plain.extend([nn.Tanh(), nn.Sigmoid()])
del plain[2]
print(plain, plain[::2])
md = nn.ModuleDict({"enc": nn.Linear(2, 2), "dec": nn.Identity()})
md.update({"extra": nn.Conv2d(1, 2, 3, stride=2, padding=1, dilation=1, groups=1)})
print(md, list(md.keys()), "enc" in md)
ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])
ml.extend([nn.ReLU()])
print(ml, ml[0] is ml[-3])
pl = nn.ParameterList([nn.Parameter(torch.zeros(2, 2)), nn.Parameter(torch.ones(3))])
pd = nn.ParameterDict({"alpha": nn.Parameter(torch.tensor(1.0))})
print(pl, pd)
print(nn.Embedding(10, 3, padding_idx=0), nn.EmbeddingBag(10, 3, mode="max"), nn.LSTM(4, 8, 2, batch_first=True, dropout=0.1))
print(nn.MultiheadAttention(8, 2, batch_first=True), nn.Conv1d(3, 6, 5, padding="same", padding_mode="reflect"))
print(nn.BatchNorm2d(4, affine=False), nn.MaxPool2d(2, ceil_mode=True), nn.Upsample(scale_factor=2.0))
