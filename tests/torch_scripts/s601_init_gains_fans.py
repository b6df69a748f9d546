import math
import torch
import torch.nn as nn

print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 0.2))
print(nn.init.calculate_gain("linear"), nn.init.calculate_gain("sigmoid"), nn.init.calculate_gain("selu"), nn.init.calculate_gain("conv2d"))
w = torch.empty(3, 5)
print(nn.init._calculate_fan_in_and_fan_out(w), nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3)))
print(nn.init.eye_(torch.empty(2, 3)), nn.init.ones_(torch.empty(2)), nn.init.constant_(torch.empty(2), 0.3))
d = nn.init.dirac_(torch.empty(2, 2, 3))
print(d)
print(nn.init.dirac_(torch.empty(4, 2, 3), groups=2)[:, :, 1])
lin = nn.Linear(100, 50)
bound = 1 / math.sqrt(100)
print(lin.weight.abs().max().item() <= bound, lin.bias.abs().max().item() <= bound)
nn.init.kaiming_uniform_(lin.weight, a=math.sqrt(5))
print(lin.weight.abs().max().item() <= bound + 1e-12)
nn.init.xavier_uniform_(lin.weight, gain=nn.init.calculate_gain("tanh"))
lim = 5 / 3 * math.sqrt(6 / 150)
print(lin.weight.abs().max().item() <= lim)
q = nn.init.orthogonal_(torch.empty(4, 4))
print(torch.allclose(q @ q.T, torch.eye(4), atol=1e-10))
t = nn.init.trunc_normal_(torch.empty(1000), mean=0.0, std=1.0, a=-0.5, b=0.5)
print(t.min().item() >= -0.5, t.max().item() <= 0.5)
s = nn.init.sparse_(torch.empty(10, 4), sparsity=0.3)
print((s == 0).sum(0).tolist())
print(nn.init.zeros_(torch.empty(2, 2)).sum().item(), nn.init.uniform_(torch.empty(100), -1, 1).abs().max().item() <= 1)
try:
    nn.init.calculate_gain("nope")
except ValueError as e:
    print("ValueError", e)
try:
    nn.init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print("ValueError", e)
