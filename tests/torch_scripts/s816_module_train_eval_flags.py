# train()/eval() propagation, a custom module behaving differently in training, requires_grad_
# on a whole module, modules() iteration, apply() to count layers, zero_grad(set_to_none)
import torch
import torch.nn as nn


class Noisy(nn.Module):
    def forward(self, x):
        return x + 1.0 if self.training else x


net = nn.Sequential(nn.Linear(2, 2), Noisy(), nn.Sequential(nn.Dropout(0.5), Noisy()))
print([m.training for m in net.modules()])
net.eval()
print([m.training for m in net.modules()], net(torch.zeros(1, 2)).shape)
net.train(False)
print(net.training)
net[2].train()
print([m.training for m in net.modules()])
net.requires_grad_(False)
print([p.requires_grad for p in net.parameters()])
net[0].requires_grad_()
print([p.requires_grad for p in net.parameters()])
counts = {}
net.apply(lambda m: counts.__setitem__(type(m).__name__, counts.get(type(m).__name__, 0) + 1))
print(sorted(counts.items()))
with torch.no_grad():
    net[0].weight.fill_(1.0)
    net[0].bias.zero_()
net.eval()
out = net(torch.tensor([[1.0, 2.0]]))
out.sum().backward()
print(out, net[0].weight.grad)
net.zero_grad()
print(net[0].weight.grad)
net(torch.tensor([[1.0, 2.0]])).sum().backward()
net.zero_grad(set_to_none=False)
print(net[0].weight.grad)
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
