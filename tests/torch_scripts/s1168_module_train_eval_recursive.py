# train()/eval() recursion, requires_grad_(False) on submodules, zero_grad on a module, parameter counting idioms
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3), nn.Dropout(0.1), nn.Linear(3, 2))
net.eval()
print([m.training for m in net.modules()])
net[1].train()
print([m.training for m in net.modules()], net.training)
net[0].requires_grad_(False)
print(sum(p.numel() for p in net.parameters()), sum(p.numel() for p in net.parameters() if p.requires_grad))
print([n for n, p in net.named_parameters() if not p.requires_grad])
net.train()
out = net(torch.arange(8.0).view(2, 4)).sum()
out.backward()
print(net[0].weight.grad, net[3].weight.grad is not None)
net.zero_grad()
print(net[3].weight.grad)
net.zero_grad(set_to_none=False) if False else None
frozen = [p for p in net.parameters() if not p.requires_grad]
print(len(frozen), net[3].weight.grad)
