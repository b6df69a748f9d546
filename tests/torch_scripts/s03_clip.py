import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters, clip_grad_norm_, clip_grad_value_

torch.manual_seed(0)
m = nn.Linear(4, 3)
with torch.no_grad():
    m.weight.copy_(torch.arange(12.).reshape(3, 4) / 10)
    m.bias.fill_(0.5)
x = torch.ones(2, 4)
loss = (m(x) ** 2).sum()
loss.backward()
total = clip_grad_norm_(m.parameters(), max_norm=1.0)
print(total, type(total).__name__, total.dtype)
print(m.weight.grad.norm(), m.bias.grad)
total = nn.utils.clip_grad_norm_(m.parameters(), 0.5, norm_type=float('inf'))
print(total)
clip_grad_value_(m.parameters(), clip_value=0.1)
print(m.weight.grad)
v = parameters_to_vector(m.parameters())
print(v.shape, v[:5])
vector_to_parameters(torch.zeros_like(v), m.parameters())
print(m.weight.sum().item(), m.bias.tolist())
print(sum(p.numel() for p in m.parameters() if p.requires_grad))
