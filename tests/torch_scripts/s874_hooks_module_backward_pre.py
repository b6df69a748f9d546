# register_full_backward_pre_hook altering grad_output, a module backward hook on a model with
# two outputs used, register_module_forward_hook global hooks, and hook handles as context managers
import torch
import torch.nn as nn

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    lin.bias.zero_()
seen = []
h = lin.register_full_backward_pre_hook(lambda m, gout: (seen.append(gout[0].clone()), (gout[0] * 2,))[1])
x = torch.tensor([[1.0, 1.0]], requires_grad=True)
lin(x).sum().backward()
print(seen[0], x.grad, lin.weight.grad)
h.remove()
calls = []
g = nn.modules.module.register_module_forward_hook(lambda m, i, o: calls.append(type(m).__name__))
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
net(torch.ones(1, 2))
g.remove()
net(torch.ones(1, 2))
print(calls)
with lin.register_forward_hook(lambda m, i, o: o * 0):
    print(lin(torch.ones(1, 2)))
print(lin(torch.ones(1, 2)))
