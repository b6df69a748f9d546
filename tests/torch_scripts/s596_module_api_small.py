import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)
        self.alpha = nn.Parameter(torch.tensor(0.5))

    def forward(self, x):
        return self.alpha * self.lin(x) * self.scale

    def extra_repr(self):
        return f"scale={self.scale.item()}"


net = nn.Sequential(Block(2), nn.ReLU(), Block(2))
print(net)
print([n for n, _ in net.named_parameters()])
print([n for n, _ in net.named_buffers()], list(net.state_dict().keys()))
print(net.get_submodule("0.lin"), net.get_parameter("2.alpha"), net.get_buffer("0.scale"))
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
net[0].requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
print(len(list(net.children())), len(list(net.modules())), [type(m).__name__ for m in net.modules()])
net.to(torch.float32)
print(net[0].lin.weight.dtype, net[0].scale.dtype, net[0].alpha.dtype)
net.double()
print(net[2].lin.bias.dtype)
net.zero_grad()
print(net[2].lin.weight.grad)
named = dict(net.named_modules())
print(list(named), isinstance(named["0"], Block))
del net[1]
print(len(net), type(net[1]).__name__)
net.append(nn.Tanh())
net.insert(1, nn.Identity())
print([type(m).__name__ for m in net])
print(net[0:2])
try:
    net.register_buffer("bad.name", torch.zeros(1))
except KeyError as e:
    print("KeyError", e)
try:
    net.get_submodule("9")
except AttributeError as e:
    print("AttributeError", e)
