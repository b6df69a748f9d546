# Module.apply for init, children vs modules, register_buffer persistent=False, named_buffers
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)

net = nn.Sequential(Block(), nn.ReLU(), Block())
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.5)
        nn.init.zeros_(m.bias)
net.apply(init)
print([type(c).__name__ for c in net.children()])
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_buffers()])
print(list(net.state_dict().keys()))
print(net[0].lin.weight, sum(p.numel() for p in net.parameters()))
net[0].scale.fill_(3.0)
print(net.state_dict()["0.scale"])
print(net[2].get_submodule("lin").bias, net.get_parameter("2.lin.weight").shape)
