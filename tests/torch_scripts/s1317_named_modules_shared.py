# shared submodules: named_modules / parameters deduplicate; remove_duplicate=False; apply
import torch
import torch.nn as nn

shared = nn.Linear(2, 2)
net = nn.Sequential(shared, nn.ReLU(), shared)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_modules(remove_duplicate=False)])
print(len(list(net.parameters())), [n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_parameters(remove_duplicate=False)])
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.5)
        nn.init.zeros_(m.bias)
net.apply(init)
print(net(torch.tensor([[1.0, 2.0]])))
print(len(net.state_dict()), list(net.state_dict()))
