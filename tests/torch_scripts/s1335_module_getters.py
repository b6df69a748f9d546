# get_submodule / get_parameter / get_buffer / named_parameters(prefix, recurse) / children
import torch
import torch.nn as nn

net = nn.Sequential()
net.add_module("block", nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)))
net.register_module("head", nn.Linear(3, 1))
print(net.get_submodule("block.1"))
print(net.get_parameter("head.bias").shape, net.get_buffer("block.1.running_var"))
print([n for n, _ in net.named_parameters(prefix="model")])
print([n for n, _ in net.named_parameters(recurse=False)], [n for n, _ in net.block.named_parameters(recurse=False)])
print([type(c).__name__ for c in net.children()], [n for n, _ in net.named_children()])
try:
    net.get_submodule("block.7")
except AttributeError as e:
    print("AttributeError", e)
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()), net.training)
net.train(False)
print(net.block[1].training)
