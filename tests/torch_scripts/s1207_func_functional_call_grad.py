# grad of a loss w.r.t. a params dict via functional_call
import torch
import torch.nn as nn
from torch.func import functional_call, grad

torch.manual_seed(0)
net = nn.Linear(3, 1)
with torch.no_grad():
    net.weight.copy_(torch.tensor([[0.1, -0.2, 0.3]]))
    net.bias.fill_(0.5)
x = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 1.0]])
y = torch.tensor([[1.0], [0.0]])
params = {k: v.detach() for k, v in net.named_parameters()}

def loss(p):
    return ((functional_call(net, p, (x,)) - y) ** 2).mean()

g = grad(loss)(params)
print(sorted(g))
print(g["weight"], g["bias"])
loss_t = ((net(x) - y) ** 2).mean()
loss_t.backward()
print(torch.allclose(net.weight.grad, g["weight"]), torch.allclose(net.bias.grad, g["bias"]))
