import torch
import torch.nn as nn
from collections import OrderedDict


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.lin = nn.Linear(c, c)
        self.act = nn.ReLU()
        self.register_buffer("count", torch.zeros(()))

    def forward(self, x):
        self.count += 1
        return self.act(self.lin(x))

    def extra_repr(self):
        return f"c={self.lin.in_features}"


net = nn.Sequential(OrderedDict([("b1", Block(3)), ("b2", Block(3)), ("head", nn.Linear(3, 1))]))
shared = net.b1
net.add_module("again", shared)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_modules(remove_duplicate=False)])
print([n for n, _ in net.named_children()], len(net))
print(net.get_submodule("b2.lin"), net.get_parameter("head.bias").shape, net.get_buffer("b1.count"))
print([n for n, _ in net.named_parameters(prefix="model", recurse=True)][:3])
print(list(net.state_dict(prefix="p.").keys())[:4])
net.apply(lambda m: nn.init.ones_(m.weight) if isinstance(m, nn.Linear) else None)
print(net.head.weight)
net.requires_grad_(False)
print(any(p.requires_grad for p in net.parameters()))
net.b2.requires_grad_(True)
print([n for n, p in net.named_parameters() if p.requires_grad])
net.eval()
print(net.training, net.b1.training, net.train().b2.training)
print(net[0] is net.b1, net[-1] is net.again, type(net[1:3]).__name__, len(net[1:]))
del net[1]
print([n for n, _ in net.named_children()])
net.insert(1, nn.Tanh())
net.append(nn.Sigmoid())
print(net)
print(net[:2](torch.ones(2, 3)).shape, net[0].count)
md = nn.ModuleDict({"a": nn.Linear(1, 1)})
md.update({"b": nn.ReLU()})
md["c"] = nn.Identity()
print(list(md.keys()), "b" in md, md.pop("b"))
ml = nn.ModuleList([nn.ReLU()])
ml.extend([nn.Tanh(), nn.GELU()])
ml += nn.ModuleList([nn.SiLU()])
print(ml, ml.index(ml[2]) if hasattr(ml, "index") else None)
try:
    net.get_submodule("nope")
except AttributeError as e:
    print("AttributeError:", e)
print(sum(p.numel() for p in net.parameters()), sum(b.numel() for b in net.buffers()))
