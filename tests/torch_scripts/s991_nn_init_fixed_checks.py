# nn.init functions whose results are deterministic: constant, ones, zeros, eye, dirac, calculate_gain; fans
import torch
import torch.nn as nn

w = torch.empty(3, 5)
print(nn.init.eye_(w))
c = torch.empty(2, 2, 3)
print(nn.init.dirac_(c))
print(nn.init.constant_(torch.empty(2, 2), 0.3), nn.init.zeros_(torch.empty(2)), nn.init.ones_(torch.empty(1, 2)))
for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, round(nn.init.calculate_gain(nl), 6))
print(round(nn.init.calculate_gain("leaky_relu", 0.2), 6))
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3)))
t = nn.init.kaiming_uniform_(torch.empty(4, 3), a=0.0, mode="fan_in", nonlinearity="relu")
print(t.shape, bool(t.abs().max() <= (6 / 3) ** 0.5))
t = nn.init.xavier_uniform_(torch.empty(10, 20), gain=2.0)
print(bool(t.abs().max() <= 2.0 * (6 / 30) ** 0.5))
t = nn.init.trunc_normal_(torch.empty(100), std=1.0, a=-0.5, b=0.5)
print(bool(t.min() >= -0.5), bool(t.max() <= 0.5))
t = nn.init.orthogonal_(torch.empty(3, 5))
print(torch.allclose(t @ t.T, torch.eye(3)))
t = nn.init.sparse_(torch.empty(10, 4), sparsity=0.5)
print((t == 0).sum(dim=0).tolist())
p = nn.Parameter(torch.zeros(2))
print(nn.init.uniform_(p, 1.0, 1.0), p.requires_grad)
try:
    nn.init.xavier_uniform_(torch.empty(5))
except ValueError as e:
    print(e)
