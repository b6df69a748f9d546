import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.act = nn.GELU(approximate="tanh")
    def forward(self, x):
        return self.act(self.lin(x)) + x
    def extra_repr(self):
        return "residual=True"

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(3) for _ in range(2)])
        self.heads = nn.ModuleDict({"a": nn.Linear(3, 1), "b": nn.Linear(3, 2)})
        self.shared = self.blocks[0]
    def forward(self, x, head="a"):
        for b in self.blocks:
            x = b(x)
        return self.heads[head](x)

net = Net()
print(net)
print([n for n, _ in net.named_modules()])
print(len(list(net.named_modules(remove_duplicate=False))))
print([n for n, _ in net.named_parameters()])
print(net.get_submodule("blocks.1.lin"), net.get_parameter("heads.b.bias").shape)
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.1)
        nn.init.zeros_(m.bias)
net.apply(init)
x = torch.tensor([[1.0, 2.0, 3.0]])
print(net(x).round(decimals=5), net(x, head="b").round(decimals=5))
net.heads.requires_grad_(False)
print([n for n, p in net.named_parameters() if p.requires_grad])
net(x).sum().backward()
print(net.heads.a.weight.grad, net.blocks[0].lin.bias.grad.round(decimals=5))
net.zero_grad()
print(net.blocks[0].lin.bias.grad)
print(list(net.named_children())[0][0], len(list(net.children())))
net.register_module("extra", nn.Identity())
net.extra2 = nn.Tanh()
print([n for n, _ in net.named_children()])
del net.extra2
print(hasattr(net, "extra2"), "extra" in net._modules)
net.double()
print(net.blocks[0].lin.weight.dtype)
net.float()
print(net.blocks[0].lin.weight.dtype, net(x.float()).dtype)
