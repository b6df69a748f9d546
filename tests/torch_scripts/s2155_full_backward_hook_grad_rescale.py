import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    net[0].weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 0.5], [-1.0, 2.0]]))
    net[0].bias.copy_(torch.tensor([0.1, 0.0, -0.1]))
    net[2].weight.copy_(torch.tensor([[1.0, 2.0, 3.0]]))
    net[2].bias.zero_()
seen = []
def bwd(mod, grad_input, grad_output):
    seen.append((type(mod).__name__, [None if g is None else tuple(g.shape) for g in grad_input],
                 [tuple(g.shape) for g in grad_output]))
    return tuple(None if g is None else g * 0.5 for g in grad_input)
def bwd_pre(mod, grad_output):
    seen.append(("pre", type(mod).__name__))
    return (grad_output[0] * 2,)
h1 = net[1].register_full_backward_hook(bwd)
h2 = net[2].register_full_backward_pre_hook(bwd_pre)
x = torch.tensor([[1.0, 0.5], [0.2, -1.0]], requires_grad=True)
net(x).sum().backward()
print(seen)
print(x.grad.round(decimals=4))
print(net[0].weight.grad.round(decimals=4))
h1.remove(); h2.remove()
x.grad = None
net.zero_grad()
net(x).sum().backward()
print(x.grad.round(decimals=4))
h3 = net.register_full_backward_hook(lambda m, gi, go: print("outer", type(m).__name__, gi[0].shape, go[0].shape))
net(x).sum().backward()
