# nn.init functions that are deterministic: constant_, ones_, zeros_, eye_, dirac_, and
# the gain / fan calculations; the random ones checked through shapes and bounds only
import math
import torch
import torch.nn as nn

w = torch.empty(3, 5)
nn.init.constant_(w, 0.3)
print(w.sum())
nn.init.eye_(w)
print(w)
nn.init.ones_(w)
nn.init.zeros_(w)
print(w.abs().sum())
conv = torch.empty(4, 2, 3)
nn.init.dirac_(conv)
print(conv[:, :, 1], conv.sum())
conv2 = torch.empty(4, 2, 3, 3)
nn.init.dirac_(conv2, groups=2)
print(conv2.sum(dim=(2, 3)))
for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, round(nn.init.calculate_gain(nl), 6))
print(round(nn.init.calculate_gain("leaky_relu", 0.2), 6), round(nn.init.calculate_gain("leaky_relu"), 6))
u = torch.empty(200, 100)
nn.init.kaiming_uniform_(u, a=math.sqrt(5))
bound = 1 / math.sqrt(100)
print(u.abs().max().item() <= bound + 1e-12, u.shape)
nn.init.xavier_uniform_(u, gain=2.0)
print(u.abs().max().item() <= 2.0 * math.sqrt(6 / 300) + 1e-12)
nn.init.uniform_(u, -0.1, 0.1)
print(u.min().item() >= -0.1, u.max().item() <= 0.1)
nn.init.trunc_normal_(u, std=1.0, a=-0.5, b=0.5)
print(u.min().item() >= -0.5, u.max().item() <= 0.5)
s = torch.empty(6, 6)
nn.init.orthogonal_(s)
print(torch.allclose(s @ s.T, torch.eye(6), atol=1e-10))
sp = torch.empty(10, 4)
nn.init.sparse_(sp, sparsity=0.3)
print((sp == 0).sum(0))
try:
    nn.init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print(e)
r = nn.init.normal_(torch.empty(2), mean=5.0, std=0.0)
print(r)
