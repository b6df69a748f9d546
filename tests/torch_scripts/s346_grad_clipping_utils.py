import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters

net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).view_as(p) * (i + 1))
x = torch.linspace(-2, 2, 15).view(5, 3)
net(x).pow(2).sum().backward()
norms = [p.grad.norm().item() for p in net.parameters()]
print([round(n, 5) for n in norms])
total = clip_grad_norm_(net.parameters(), max_norm=1.0)
print(round(total.item(), 5), round(torch.stack([p.grad.norm() for p in net.parameters()]).norm().item(), 5))
tinf = clip_grad_norm_(net.parameters(), max_norm=0.1, norm_type=float("inf"))
print(round(tinf.item(), 6), round(max(p.grad.abs().max().item() for p in net.parameters()), 6))
t1 = clip_grad_norm_(net.parameters(), 10.0, norm_type=1)
print(round(t1.item(), 6))
clip_grad_value_(net.parameters(), clip_value=0.01)
print(max(p.grad.abs().max().item() for p in net.parameters()))
net[0].weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:80])
print(clip_grad_norm_(net.parameters(), 1.0).isnan())
v = parameters_to_vector(net.parameters())
print(v.shape)
vector_to_parameters(torch.zeros_like(v), net.parameters())
print(net[2].weight)
print(clip_grad_norm_([], 1.0))
p = nn.Parameter(torch.ones(3))
p.grad = torch.tensor([3.0, 4.0, 0.0])
print(clip_grad_norm_(p, 1.0, foreach=False), p.grad)
print(nn.utils.get_total_norm([torch.tensor([3.0, 4.0]), torch.tensor([12.0])]))
g = [torch.tensor([3.0, 4.0])]
nn.utils.clip_grads_with_norm_([nn.Parameter(torch.zeros(2))], 1.0, torch.tensor(5.0))
print("ok")
