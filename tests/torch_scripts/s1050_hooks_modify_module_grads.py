# full backward hooks that rescale grad_input, backward pre-hooks that zero grad_output, on a two-layer net
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
for p in net.parameters():
    nn.init.constant_(p, 0.3)
x = torch.tensor([[1.0, -1.0]], requires_grad=True)
h1 = net[1].register_full_backward_hook(lambda m, gi, go: (gi[0] * 0.5,))
h2 = net[2].register_full_backward_pre_hook(lambda m, go: (go[0] * 2,))
net(x).sum().backward()
print(x.grad, net[0].weight.grad, net[2].weight.grad)
h1.remove()
h2.remove()
for p in net.parameters():
    p.grad = None
x.grad = None
net(x).sum().backward()
print(x.grad, net[0].weight.grad)
