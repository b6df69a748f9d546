# MAML-style inner loop: functional_call with updated weights, second-order meta-gradient
import torch
import torch.nn as nn
from torch.func import functional_call

net = nn.Linear(1, 1)
with torch.no_grad():
    net.weight.fill_(0.5)
    net.bias.fill_(0.0)
params = dict(net.named_parameters())
xs = torch.tensor([[1.0], [2.0]])
ys = torch.tensor([[2.0], [4.0]])
xq = torch.tensor([[3.0]])
yq = torch.tensor([[6.0]])
fast = params
for step in range(2):
    loss = ((functional_call(net, fast, (xs,)) - ys) ** 2).mean()
    grads = torch.autograd.grad(loss, list(fast.values()), create_graph=True)
    fast = {k: v - 0.1 * g for (k, v), g in zip(fast.items(), grads)}
    print(step, loss.item(), {k: v.item() for k, v in fast.items()})
meta = ((functional_call(net, fast, (xq,)) - yq) ** 2).mean()
meta.backward()
print(meta.item(), net.weight.grad, net.bias.grad)
print(fast["weight"].grad_fn.name())
