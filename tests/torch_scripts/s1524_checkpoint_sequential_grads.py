# activation checkpointing: same values and gradients as running the layers plainly
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1) / 3)
x = torch.linspace(-1, 1, 6).reshape(2, 3).requires_grad_()
plain = net(x).sum()
plain.backward()
ref = [p.grad.clone() for p in net.parameters()]
xg = x.grad.clone()
net.zero_grad()
x.grad = None
out = checkpoint_sequential(net, 2, x, use_reentrant=False)
out.sum().backward()
print(out.sum().item() == plain.item())
print(all(torch.allclose(a, p.grad) for a, p in zip(ref, net.parameters())))
print(torch.allclose(xg, x.grad))
count = [0]


def block(t):
    count[0] += 1
    return net[0](t).tanh() * 2


x.grad = None
y = checkpoint(block, x, use_reentrant=False)
print(count, y.requires_grad)
y.sum().backward()
print(count, x.grad)
with torch.no_grad():
    print(checkpoint(block, x, use_reentrant=False).requires_grad, count)
