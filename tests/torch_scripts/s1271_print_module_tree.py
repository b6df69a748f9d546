# module printing: nested Sequential, ModuleList, ModuleDict, custom extra_repr
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.lin = nn.Linear(n, n, bias=False)
        self.acts = nn.ModuleList([nn.ReLU(), nn.GELU(approximate="tanh")])
        self.heads = nn.ModuleDict({"a": nn.Linear(n, 1), "b": nn.Identity()})

    def extra_repr(self):
        return f"n={self.n}"

net = nn.Sequential(Block(2), nn.Dropout(0.25), nn.Sequential(nn.Flatten(), nn.Softmax(dim=-1)))
print(net)
print(net[0].acts)
print(nn.Conv2d(3, 8, (3, 5), stride=(2, 1), padding=(1, 2), dilation=2, groups=1, bias=False))
print(nn.LSTM(4, 8, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True))
print(nn.MaxPool2d(2), nn.AdaptiveAvgPool2d((1, 1)), nn.LeakyReLU(0.2, inplace=True))
