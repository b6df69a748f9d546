import torch
import torch.nn as nn

w = torch.empty(3, 5)
nn.init.constant_(w, 0.3)
print(w[0])
nn.init.eye_(w)
print(w)
nn.init.dirac_(torch.empty(2, 2, 3))
print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("leaky_relu", 0.2))
print(nn.init.calculate_gain("tanh"), nn.init.calculate_gain("selu"))
torch.manual_seed(3)
a = nn.init.xavier_uniform_(torch.empty(4, 6))
torch.manual_seed(3)
b = nn.init.xavier_uniform_(torch.empty(4, 6))
print(torch.equal(a, b), a.abs().max() <= (6 / 10) ** 0.5)
k = nn.init.kaiming_normal_(torch.empty(8, 4), mode="fan_out", nonlinearity="relu")
print(k.shape, k.dtype)
o = nn.init.orthogonal_(torch.empty(3, 3))
print(torch.allclose(o @ o.T, torch.eye(3), atol=1e-6))
t = nn.init.trunc_normal_(torch.empty(100), a=-0.5, b=0.5)
print(bool((t.abs() <= 0.5).all()))
z = nn.init.zeros_(torch.empty(2, 2))
print(z, nn.init.ones_(torch.empty(2)))
try:
    nn.init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print("ValueError:", e)
