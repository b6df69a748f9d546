# torch.utils.checkpoint with use_reentrant=False gives the same grads; checkpoint_sequential
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) / 3)
x = torch.tensor([[0.5, -0.5], [1.0, 2.0]], requires_grad=True)
net(x).sum().backward()
ref = [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]
net.zero_grad(); x.grad = None
checkpoint(net, x, use_reentrant=False).sum().backward()
got = [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]
print(all(torch.allclose(a, b) for a, b in zip(ref, got)))
net.zero_grad(); x.grad = None
checkpoint_sequential(net, 2, x, use_reentrant=False).sum().backward()
print(all(torch.allclose(a, b) for a, b in zip(ref, [p.grad for p in net.parameters()] + [x.grad])))
print(ref[-1])
