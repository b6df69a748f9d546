import math
import torch
import torch.nn as nn

lin = nn.Linear(4, 3)
try:
    lin.weight.fill_(0.0)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
with torch.no_grad():
    lin.weight.fill_(0.0)
    lin.weight[0].copy_(torch.arange(4.0))
    lin.weight.diagonal().add_(1.0)
    lin.bias.mul_(0).add_(0.5)
print(lin.weight, lin.bias)
print(lin.weight.requires_grad, lin.weight.is_leaf, lin.weight.grad_fn)
nn.init.constant_(lin.bias, -0.25)
nn.init.eye_(lin.weight)
print(lin.weight.sum().item(), lin.bias)
lin.weight.data = torch.full((3, 4), 0.1)
print(lin.weight, type(lin.weight).__name__)
w = torch.empty(3, 5)
nn.init.zeros_(w)
print(w.sum().item())
print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("leaky_relu", 0.2),
      round(nn.init.calculate_gain("tanh"), 6), nn.init.calculate_gain("selu"))
torch.manual_seed(0)
nn.init.kaiming_uniform_(w, a=math.sqrt(5))
bound = 1 / math.sqrt(5)
print(w.abs().max().item() <= bound, w.shape)
nn.init.xavier_normal_(w, gain=2.0)
print(w.shape, w.dtype)
with torch.no_grad():
    w.clamp_(-0.1, 0.1)
print(w.abs().max().item() <= 0.1)
x = torch.ones(2, 4)
out = lin(x)
out.sum().backward()
print(lin.weight.grad, lin.bias.grad)
with torch.no_grad():
    for p in lin.parameters():
        p -= 0.1 * p.grad
print(lin.weight[0], lin.bias)
