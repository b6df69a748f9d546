from collections import OrderedDict
import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.heads = nn.ModuleDict({"cls": nn.Linear(4, 3), "reg": nn.Linear(4, 1)})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(4)), nn.Parameter(torch.zeros(1))])
        self.extra = nn.ParameterDict({"temp": nn.Parameter(torch.tensor(1.5))})
        self.stem = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 4)), ("act", nn.GELU())]))
    def forward(self, x, head="cls"):
        h = self.stem(x)
        for blk, s in zip(self.blocks, self.scales):
            h = torch.relu(blk(h)) * s
        return self.heads[head](h) / self.extra["temp"]

net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.1 * i))
print(net)
print([n for n, _ in net.named_parameters()])
print(len(list(net.modules())), [n for n, _ in net.named_children()])
x = torch.tensor([[0.3, -0.7], [1.0, 2.0]])
print(net(x).round(decimals=5), net(x, "reg").round(decimals=5))
net.blocks.append(nn.Identity())
net.blocks.insert(0, nn.Tanh())
print(len(net.blocks), net.blocks[0], net.blocks[-1])
net.heads.update({"aux": nn.Linear(4, 2)})
print(list(net.heads.keys()), "aux" in net.heads)
del net.heads["aux"]
net.extra["bias"] = nn.Parameter(torch.zeros(2))
print(list(net.extra.keys()), net.scales[1])
print(net.stem.fc, net.stem[0] is net.stem.fc, net.stem[-1:])
sd = net.state_dict()
print(list(sd.keys()))
fresh = Net()
res = fresh.load_state_dict({k: v for k, v in sd.items() if not k.startswith("heads.reg")}, strict=False)
print(res.missing_keys, res.unexpected_keys)
print(torch.equal(fresh.heads.cls.weight, net.heads.cls.weight))
seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
seq.append(nn.Sigmoid())
print(seq[1:3], len(seq))
print(nn.ModuleList([nn.ReLU(), nn.ReLU()]) + nn.ModuleList([nn.Tanh()]))
