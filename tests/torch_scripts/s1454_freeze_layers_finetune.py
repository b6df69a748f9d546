# freezing a backbone: requires_grad_(False), optimizer over trainable params only
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * 0.5)
for p in net[0].parameters():
    p.requires_grad_(False)
trainable = [p for p in net.parameters() if p.requires_grad]
print(len(trainable), [n for n, p in net.named_parameters() if p.requires_grad])
opt = torch.optim.SGD(trainable, lr=0.1)
before = net[0].weight.clone()
x = torch.tensor([[1.0, -1.0], [0.5, 0.5]])
loss = net(x).pow(2).sum()
loss.backward()
print(net[0].weight.grad, net[2].weight.grad)
opt.step()
print(torch.equal(before, net[0].weight), net[2].bias)
