import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters, clip_grad_value_, clip_grad_norm_

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Linear(5, 2))
vec = parameters_to_vector(net.parameters())
print(vec.shape, vec.requires_grad, sum(p.numel() for p in net.parameters()))
new = torch.arange(vec.numel(), dtype=torch.float64) / 100
vector_to_parameters(new, net.parameters())
print(net[0].bias, net[2].weight.shape, net[2].bias)
print(torch.equal(parameters_to_vector(net.parameters()), new))

out = net(torch.ones(4, 3) * 10)
(out ** 2).sum().backward()
clip_grad_value_(net.parameters(), clip_value=0.5)
print(max(p.grad.abs().max().item() for p in net.parameters()))
print(net[2].bias.grad)
for p in net.parameters():
    p.grad = p.grad * 3
total = clip_grad_norm_(net.parameters(), max_norm=1.0)
print(round(total.item(), 6), total.dtype)
print(round(torch.sqrt(sum((p.grad ** 2).sum() for p in net.parameters())).item(), 6))
inf_norm = clip_grad_norm_(net.parameters(), max_norm=10.0, norm_type=float('inf'))
print(round(inf_norm.item(), 6))

g = torch.nn.utils.get_total_norm([p.grad for p in net.parameters()]) if hasattr(torch.nn.utils, "get_total_norm") else None
print(None if g is None else round(g.item(), 6))
