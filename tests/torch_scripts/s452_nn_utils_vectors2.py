import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters, clip_grad_norm_, clip_grad_value_

net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
n = sum(p.numel() for p in net.parameters())
vec = torch.linspace(-1, 1, n)
vector_to_parameters(vec, net.parameters())
print(n, torch.equal(parameters_to_vector(net.parameters()), vec), net[2].bias)
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])
loss = net(x).pow(2).sum()
loss.backward()
g = parameters_to_vector(p.grad for p in net.parameters())
print(g.shape, round(g.norm().item(), 5))
total = clip_grad_norm_(net.parameters(), max_norm=1.0)
print(round(total.item(), 5), round(parameters_to_vector(p.grad for p in net.parameters()).norm().item(), 5))
tinf = clip_grad_norm_(net.parameters(), max_norm=0.1, norm_type=float("inf"))
print(round(tinf.item(), 5), round(max(p.grad.abs().max().item() for p in net.parameters()), 5))
clip_grad_value_(net.parameters(), clip_value=0.01)
print(net[0].weight.grad.abs().max())
net[0].weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
print(clip_grad_norm_(net.parameters(), 1.0).isnan())
print(clip_grad_norm_([], 1.0))
lin = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
print(sorted(n for n, _ in lin.named_parameters()))
with torch.no_grad():
    lin.parametrizations.weight.original1.copy_(torch.tensor([[3.0, 4.0, 0.0], [1.0, 0.0, 0.0]]))
    lin.parametrizations.weight.original0.copy_(torch.tensor([[2.0], [0.5]]))
print(lin.weight)
out = lin(torch.ones(1, 3)).sum()
out.backward()
print(lin.parametrizations.weight.original0.grad.squeeze(), lin.parametrizations.weight.original1.grad)
