# nn.init: gains, fans, shapes and properties (no random values printed)
import torch
import torch.nn as nn
import torch.nn.init as init

for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu", "conv_transpose1d"]:
    print(nl, init.calculate_gain(nl))
print(init.calculate_gain("leaky_relu"), init.calculate_gain("leaky_relu", 0.2))
for bad in [lambda: init.calculate_gain("gelu"), lambda: init.calculate_gain("leaky_relu", "x")]:
    try:
        bad()
    except ValueError as e:
        print("ValueError", e)
print(init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 5, 5)))
print(init._calculate_fan_in_and_fan_out(torch.empty(7, 2)))
try:
    init._calculate_fan_in_and_fan_out(torch.empty(3))
except ValueError as e:
    print("ValueError", e)
try:
    init.xavier_uniform_(torch.empty(5))
except ValueError as e:
    print("ValueError", e)
torch.manual_seed(0)
w = init.orthogonal_(torch.empty(3, 5))
print(torch.allclose(w @ w.T, torch.eye(3)), w.shape)
w = init.orthogonal_(torch.empty(2, 3, 4), gain=2.0)
print(torch.allclose(w.reshape(2, 12) @ w.reshape(2, 12).T, 4 * torch.eye(2)))
s = init.sparse_(torch.empty(10, 4), sparsity=0.3)
print((s == 0).sum(0))
print(init.eye_(torch.empty(2, 3)))
print(init.dirac_(torch.empty(2, 2, 3)))
print(init.dirac_(torch.empty(4, 2, 1, 1), groups=2).squeeze())
print(init.constant_(torch.empty(2), 0.5), init.ones_(torch.empty(1)), init.zeros_(torch.empty(1)))
t = init.trunc_normal_(torch.empty(1000), mean=0.0, std=1.0, a=-0.5, b=0.5)
print(t.min() >= -0.5, t.max() <= 0.5)
k = init.kaiming_uniform_(torch.empty(64, 100), a=0, mode="fan_out", nonlinearity="relu")
print(k.abs().max() <= (6 / 64) ** 0.5)
x = init.xavier_normal_(torch.empty(3, 3), gain=init.calculate_gain("tanh"))
print(x.shape, x.dtype)
u = init.uniform_(torch.empty(100), -2, -1)
print(u.max() <= -1, u.min() >= -2)
try:
    init.eye_(torch.empty(2, 2, 2))
except ValueError as e:
    print("ValueError", e)
try:
    init.dirac_(torch.empty(2, 2))
except ValueError as e:
    print("ValueError", e)
try:
    init.sparse_(torch.empty(2, 2, 2), 0.1)
except ValueError as e:
    print("ValueError", e)
p = nn.Parameter(torch.zeros(2))
with torch.no_grad():
    out = init.normal_(p)
print(out is p, p.requires_grad)
