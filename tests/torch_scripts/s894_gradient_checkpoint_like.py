# Recomputing activations with torch.utils.checkpoint (use_reentrant=False) gives identical
# gradients; checkpoint_sequential over a Sequential; preserve_rng_state with no dropout
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * 0.9 + i).view_as(p) * 0.5)
x = torch.linspace(-1, 1, 6).view(2, 3).requires_grad_()
net(x).sum().backward()
ref = [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]
net.zero_grad()
x.grad = None
h = checkpoint(lambda t: net[1](net[0](t)), x, use_reentrant=False)
out = net[4](net[3](net[2](h)))
out.sum().backward()
got = [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]
print(all(torch.allclose(a, b) for a, b in zip(ref, got)))
net.zero_grad()
x.grad = None
out2 = checkpoint_sequential(net, 2, x, use_reentrant=False)
out2.sum().backward()
print(torch.allclose(out2, out), all(torch.allclose(a, p.grad) for a, p in zip(ref, net.parameters())), x.grad)
