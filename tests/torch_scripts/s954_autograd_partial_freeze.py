# requires_grad_(False) on part of a model: autograd.grad to frozen params errors; inputs= in backward
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 2.0]])); net[0].bias.zero_()
    net[2].weight.copy_(torch.tensor([[1.5, -0.5]])); net[2].bias.fill_(0.2)
net[0].requires_grad_(False)
x = torch.tensor([[1.0, 0.5], [2.0, -1.0]])
loss = net(x).pow(2).mean()
try:
    torch.autograd.grad(loss, net[0].weight, retain_graph=True)
except RuntimeError as e:
    print(str(e).split(" (")[0])
print(torch.autograd.grad(loss, net[2].weight, retain_graph=True))
loss.backward(inputs=[net[2].bias])
print(net[2].bias.grad, net[2].weight.grad, net[0].weight.grad)
print([n for n, p in net.named_parameters() if p.requires_grad])
