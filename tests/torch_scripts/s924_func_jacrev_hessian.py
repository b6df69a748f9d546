# torch.func.jacrev / jacfwd / hessian on a small network's output w.r.t. its input
import torch
import torch.nn as nn
from torch.func import jacrev, jacfwd, hessian, functional_call

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for k, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) + 0.1 * k)
x = torch.tensor([0.3, -0.4])
f = lambda z: net(z).squeeze(-1)
print(jacrev(f)(x).round(decimals=6), jacfwd(f)(x).round(decimals=6))
print(hessian(f)(x).round(decimals=6))
params = dict(net.named_parameters())
J = jacrev(lambda p, z: functional_call(net, p, (z,)))(params, x)
print(sorted(J), J["2.bias"], J["0.weight"].shape)
print(torch.vmap(jacrev(f))(torch.stack([x, -x])).round(decimals=6))
