# printing nested custom modules with extra_repr, ModuleList and ModuleDict
import torch
import torch.nn as nn

class Scale(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.s = s
    def extra_repr(self):
        return f"s={self.s}"
    def forward(self, x):
        return x * self.s

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2), Scale(0.5)])
        self.heads = nn.ModuleDict({"a": nn.Linear(2, 1), "b": nn.Identity()})
        self.act = nn.LeakyReLU(0.2)
print(Net())
print(nn.Sequential(nn.Conv2d(1, 2, 3, stride=2, padding=1), nn.MaxPool2d(2), nn.Dropout(0.25), nn.Flatten(1)))
print(nn.Linear(3, 4, bias=False), nn.BatchNorm2d(3, affine=False), nn.Embedding(10, 3, padding_idx=0))
