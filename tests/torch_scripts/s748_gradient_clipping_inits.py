# nn.init zoo on fixed generator-free tensors, plus clipping utilities and their returned norms
import math
import torch
import torch.nn as nn

w = torch.empty(3, 5)
nn.init.constant_(w, 0.3)
print(w[0])
nn.init.ones_(w); print(w.sum().item())
nn.init.zeros_(w); print(w.abs().sum().item())
nn.init.eye_(w); print(w)
d = torch.empty(4, 2, 3)
nn.init.dirac_(d); print(d[:, :, 1])
print(nn.init.calculate_gain('relu'), nn.init.calculate_gain('leaky_relu', 0.2),
      nn.init.calculate_gain('tanh'), nn.init.calculate_gain('selu'), nn.init.calculate_gain('sigmoid'))
torch.manual_seed(0)
for fn in [nn.init.xavier_uniform_, nn.init.xavier_normal_, nn.init.kaiming_uniform_,
           nn.init.kaiming_normal_, nn.init.orthogonal_, nn.init.trunc_normal_]:
    t = torch.empty(64, 32)
    out = fn(t)
    print(fn.__name__, out is t, out.shape, out.dtype)
t = nn.init.uniform_(torch.empty(1000), a=-0.5, b=0.5)
print(t.min().item() >= -0.5, t.max().item() <= 0.5)
t = nn.init.trunc_normal_(torch.empty(1000), std=1.0, a=-2.0, b=2.0)
print(t.abs().max().item() <= 2.0)
q = nn.init.orthogonal_(torch.empty(6, 4))
print(torch.allclose(q.T @ q, torch.eye(4), atol=1e-10))
bound = math.sqrt(6 / (32 + 64))
t = nn.init.xavier_uniform_(torch.empty(64, 32))
print(t.abs().max().item() <= bound)

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]]))
    lin.bias.fill_(0.0)
x = torch.tensor([[10.0, -20.0, 30.0]])
(lin(x) ** 2).sum().backward()
print(lin.weight.grad, lin.bias.grad)
total = torch.nn.utils.clip_grad_norm_(lin.parameters(), max_norm=1.0)
print(total, torch.cat([p.grad.flatten() for p in lin.parameters()]).norm())
lin.zero_grad()
(lin(x) ** 2).sum().backward()
inf_norm = torch.nn.utils.clip_grad_norm_(lin.parameters(), 5.0, norm_type=float('inf'))
print(inf_norm, lin.weight.grad.abs().max())
torch.nn.utils.clip_grad_value_(lin.parameters(), clip_value=0.5)
print(lin.weight.grad, lin.bias.grad)
print(torch.nn.utils.parameters_to_vector(lin.parameters()))
