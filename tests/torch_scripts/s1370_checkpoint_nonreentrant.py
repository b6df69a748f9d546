# torch.utils.checkpoint: gradients equal to the plain run; checkpoint_sequential
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 3), nn.Sigmoid(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1) / 3)
x = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]], requires_grad=True)

def grads(f):
    net.zero_grad(); x.grad = None
    f().sum().backward()
    return [p.grad.clone() for p in net.parameters()] + [x.grad.clone()]

ref = grads(lambda: net(x))
a = grads(lambda: checkpoint(net, x, use_reentrant=False))
b = grads(lambda: checkpoint_sequential(net, 2, x, use_reentrant=False))
c = grads(lambda: net[4](checkpoint(lambda t: net[3](net[2](net[1](net[0](t)))), x, use_reentrant=False)))
print(all(torch.allclose(r, s) for r, s in zip(ref, a)))
print(all(torch.allclose(r, s) for r, s in zip(ref, b)))
print(all(torch.allclose(r, s) for r, s in zip(ref, c)))
print(ref[-1])
