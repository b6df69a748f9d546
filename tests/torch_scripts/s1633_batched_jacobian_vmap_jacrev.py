# per-example Jacobians of a small network by vmap(jacrev) and by a loop; they agree
import torch
import torch.nn as nn
from torch.func import vmap, jacrev, functional_call

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-0.7, 0.7, p.numel()).reshape(p.shape) + 0.1 * i)
xs = torch.tensor([[0.1, 0.2], [1.0, -1.0], [0.0, 0.5]])
J = vmap(jacrev(net))(xs)
print(J.shape)
loop = torch.stack([torch.autograd.functional.jacobian(net, x) for x in xs])
print(torch.allclose(J, loop))
print(J[1])
params = {k: v.detach() for k, v in net.named_parameters()}
Jp = jacrev(lambda p: functional_call(net, p, (xs[0],)))(params)
print({k: tuple(v.shape) for k, v in Jp.items()})
print(Jp["2.bias"])
