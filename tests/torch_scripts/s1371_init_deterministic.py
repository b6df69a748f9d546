# deterministic nn.init functions and gains
import torch
import torch.nn as nn

w = torch.empty(3, 5)
nn.init.constant_(w, 0.3); print(w[0])
nn.init.ones_(w); print(w.sum())
nn.init.zeros_(w); print(w.abs().sum())
nn.init.eye_(w); print(w)
c = torch.empty(4, 2, 3)
nn.init.dirac_(c); print(c)
c2 = torch.empty(4, 2, 3)
nn.init.dirac_(c2, groups=2); print(c2[:, :, 1])
for nl in ["linear", "conv2d", "sigmoid", "tanh", "relu", "selu"]:
    print(nl, nn.init.calculate_gain(nl))
print(nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("leaky_relu"))
g = torch.Generator().manual_seed(1)
u = torch.empty(100, 10)
nn.init.uniform_(u, -0.5, 0.5, generator=g)
print(bool((u.abs() <= 0.5).all()), u.shape)
nn.init.kaiming_uniform_(u, a=5 ** 0.5, generator=g)
print(bool((u.abs() <= 1 / 10 ** 0.5).all()))
nn.init.xavier_uniform_(u, gain=2.0, generator=g)
print(bool((u.abs() <= 2.0 * (6 / 110) ** 0.5).all()))
try:
    nn.init.xavier_uniform_(torch.empty(3))
except ValueError as e:
    print("ValueError", e)
