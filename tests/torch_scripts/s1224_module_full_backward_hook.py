# register_full_backward_hook on a Linear: grad_input / grad_output shapes, and modifying grad_input
import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
    lin.bias.zero_()

def hook(mod, gin, gout):
    print(type(mod).__name__, [None if g is None else tuple(g.shape) for g in gin], [tuple(g.shape) for g in gout])
    print(gout[0])
    return (gin[0] * 10,)

h = lin.register_full_backward_hook(hook)
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
lin(x).pow(2).sum().backward()
print(x.grad)
h.remove()
x.grad = None
lin(x).pow(2).sum().backward()
print(x.grad)
