# Activation checkpointing: torch.utils.checkpoint.checkpoint (non-reentrant) and checkpoint_sequential give the same grads
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=p.dtype) * (i + 1)).view_as(p) / 2)
x = torch.tensor([[1.0, -0.5, 2.0], [0.0, 1.0, -1.0]], requires_grad=True)
ref = net(x).sum()
ref.backward()
g_ref = [p.grad.clone() for p in net.parameters()]
xg = x.grad.clone()
net.zero_grad(); x.grad = None
out = checkpoint(lambda t: net[2:](net[:2](t)), x, use_reentrant=False)
out.sum().backward()
print(torch.allclose(out.sum(), ref), all(torch.allclose(a, p.grad) for a, p in zip(g_ref, net.parameters())), torch.allclose(xg, x.grad))
net.zero_grad(); x.grad = None
out2 = checkpoint_sequential(net, 2, x, use_reentrant=False)
out2.sum().backward()
print(out2.detach(), torch.allclose(xg, x.grad))
