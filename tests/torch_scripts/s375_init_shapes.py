import math
import torch
import torch.nn as nn
import torch.nn.init as init

for nl, p in [("linear", None), ("conv2d", None), ("sigmoid", None), ("tanh", None), ("relu", None), ("leaky_relu", 0.2), ("selu", None)]:
    print(nl, round(init.calculate_gain(nl, p), 6))
w = torch.empty(64, 32, 3, 3)
print(init._calculate_fan_in_and_fan_out(w), init._calculate_fan_in_and_fan_out(torch.empty(10, 20)))
torch.manual_seed(0)
init.kaiming_uniform_(w, a=math.sqrt(5))
bound = 1 / math.sqrt(32 * 9)
print(w.abs().max().item() <= bound + 1e-12)
init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
print(abs(w.std().item() - math.sqrt(2 / (64 * 9))) < 0.005)
t = torch.empty(300, 400)
init.xavier_uniform_(t, gain=init.calculate_gain("tanh"))
print(t.abs().max().item() <= 5 / 3 * math.sqrt(6 / 700) + 1e-12)
init.xavier_normal_(t)
print(abs(t.std().item() - math.sqrt(2 / 700)) < 0.003)
init.trunc_normal_(t, mean=0.0, std=1.0, a=-0.5, b=0.5)
print(t.min().item() >= -0.5, t.max().item() <= 0.5)
q = torch.empty(5, 3)
init.orthogonal_(q)
print(torch.allclose(q.T @ q, torch.eye(3), atol=1e-10))
s = torch.empty(10, 8)
init.sparse_(s, sparsity=0.5)
print(((s == 0).sum(0) >= 5).all())
e = torch.empty(3, 5)
init.eye_(e)
print(e)
dd = torch.empty(2, 2, 3)
init.dirac_(dd)
print(dd)
c = torch.empty(2, 3)
print(init.constant_(c, 0.5), init.zeros_(c).sum(), init.ones_(c).sum())
u = init.uniform_(torch.empty(1000), -2, 3)
print(u.min().item() >= -2, u.max().item() < 3, init.normal_(torch.empty(2, 2), 0, 0.1).shape)
lin = nn.Linear(7, 3)
print(lin.weight.abs().max().item() <= 1 / math.sqrt(7), lin.bias.abs().max().item() <= 1 / math.sqrt(7))
try:
    init.xavier_uniform_(torch.empty(5))
except ValueError as e:
    print("ValueError:", e)
