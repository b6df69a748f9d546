# nn.init: deterministic initialisers and the gain/fan computations of the random ones
import torch
import torch.nn as nn

w = torch.empty(3, 4)
print(nn.init.constant_(w, 0.5)[0], nn.init.ones_(w).sum(), nn.init.zeros_(w).sum())
print(nn.init.eye_(torch.empty(2, 3)))
print(nn.init.dirac_(torch.empty(2, 2, 3))[:, :, 1])
for nl, p in [("linear", None), ("relu", None), ("leaky_relu", 0.2), ("tanh", None),
              ("sigmoid", None), ("selu", None), ("conv2d", None)]:
    print(nl, nn.init.calculate_gain(nl, p))
print(nn.init._calculate_fan_in_and_fan_out(torch.empty(5, 3, 2, 2)))
k = nn.init.kaiming_uniform_(torch.empty(100, 50), a=0, mode="fan_in", nonlinearity="relu")
print(k.shape, bool(k.abs().max() <= (6 / 50) ** 0.5 + 1e-12))
x = nn.init.xavier_uniform_(torch.empty(20, 30), gain=2.0)
print(bool(x.abs().max() <= 2.0 * (6 / 50) ** 0.5 + 1e-12))
t = nn.init.trunc_normal_(torch.empty(1000), mean=0.0, std=1.0, a=-0.5, b=0.5)
print(bool(t.min() >= -0.5), bool(t.max() <= 0.5))
o = nn.init.orthogonal_(torch.empty(3, 5))
print(torch.allclose(o @ o.T, torch.eye(3), atol=1e-10))
s = nn.init.sparse_(torch.empty(10, 4), sparsity=0.5)
print((s == 0).sum(0))
try:
    nn.init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print(e)
