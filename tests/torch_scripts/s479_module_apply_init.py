import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 2, 3)
        self.bn = nn.BatchNorm1d(2)
        self.fc = nn.Linear(8, 3)
        self.head = nn.ModuleList([nn.Linear(3, 1), nn.Linear(3, 2)])

    def forward(self, x):
        h = torch.relu(self.bn(self.conv(x))).flatten(1)
        h = self.fc(h)
        return [m(h) for m in self.head]


def init_weights(m):
    if isinstance(m, (nn.Linear, nn.Conv1d)):
        with torch.no_grad():
            m.weight.copy_(torch.linspace(-0.5, 0.5, m.weight.numel()).view_as(m.weight))
        nn.init.zeros_(m.bias)
    elif isinstance(m, nn.BatchNorm1d):
        nn.init.ones_(m.weight)
        nn.init.constant_(m.bias, 0.1)


net = Net()
ret = net.apply(init_weights)
print(ret is net, [n for n, m in net.named_modules() if isinstance(m, nn.Linear)])
x = torch.arange(12.0).view(2, 1, 6) / 6
outs = net(x)
print([o.shape for o in outs], outs[1].detach().round(decimals=4))
print(net.bn.running_mean.round(decimals=5), net.bn.num_batches_tracked)
net.eval()
print(net(x)[0].detach().round(decimals=4).squeeze())
print(net.training, net.bn.training, net.train().training)
nparams = {n: p.numel() for n, p in net.named_parameters()}
print(nparams, sum(nparams.values()))
print([n for n, _ in net.named_children()], len(list(net.modules())), len(list(net.buffers())))
frozen = [n for n, p in net.named_parameters() if n.startswith("conv")]
for n, p in net.named_parameters():
    p.requires_grad_(not n.startswith("conv"))
print(frozen, sum(p.numel() for p in net.parameters() if p.requires_grad))
net.zero_grad()
sum(o.sum() for o in net(x)).backward()
print(net.conv.weight.grad, net.fc.bias.grad.round(decimals=4))
print(net.head, net.head[-1].out_features)
