import torch
import torch.nn as nn
from torch.autograd.functional import jacobian, hessian
from torch.func import functional_call, jacrev, hessian as fhessian

net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel()) * 0.9 + i).reshape(p.shape) * 0.6)
x = torch.tensor([[0.5, -1.0], [1.0, 2.0]])
names = [n for n, _ in net.named_parameters()]
params = tuple(p.detach() for p in net.parameters())
def f(*ps):
    return functional_call(net, dict(zip(names, ps)), (x,)).squeeze(-1)
J = jacobian(f, params)
print([tuple(j.shape) for j in J])
print(J[3].round(decimals=5), J[2].round(decimals=5))
p_dict = {n: p.detach() for n, p in net.named_parameters()}
Jd = jacrev(lambda p: functional_call(net, p, (x,)).squeeze(-1))(p_dict)
print(all(torch.allclose(Jd[n], j) for n, j in zip(names, J)))
def loss_b(b):
    return functional_call(net, {**p_dict, "2.bias": b}, (x,)).pow(2).sum()
print(hessian(loss_b, p_dict["2.bias"]), fhessian(loss_b)(p_dict["2.bias"]))
Hx = hessian(lambda inp: net(inp).sum(), x[:1])
print(Hx.shape, Hx.reshape(2, 2).round(decimals=5))
jin = jacobian(net, x)
print(jin.shape, jin[0, 0, 0].round(decimals=5), jin[0, 0, 1].abs().sum())
