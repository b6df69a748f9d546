# nn.utils: clip_grad_norm_ returns and errors, clip_grad_value_, get_total_norm, vectors
import torch
import torch.nn as nn
from torch.nn.utils import (clip_grad_norm_, clip_grad_value_, parameters_to_vector,
                            vector_to_parameters)

net = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1))
net(torch.tensor([[1.0, 2.0]])).sum().backward()
print([p.grad for p in net.parameters()])
total = clip_grad_norm_(net.parameters(), max_norm=0.5)
print(total, [p.grad.norm() for p in net.parameters()])
print(clip_grad_norm_(net.parameters(), max_norm=10.0, norm_type="inf"))
print(clip_grad_norm_(net.parameters(), 1.0, norm_type=1.0))
print(clip_grad_norm_([], 1.0))
clip_grad_value_(net.parameters(), 0.05)
print([p.grad.abs().max() for p in net.parameters()])
net[0].weight.grad[0, 0] = float("nan")
print(clip_grad_norm_(net.parameters(), 1.0))
try:
    clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError", str(e)[:80])
v = parameters_to_vector(net.parameters())
print(v.shape)
vector_to_parameters(torch.arange(float(v.numel())), net.parameters())
print(net[1].weight, net[1].bias)
try:
    parameters_to_vector(torch.ones(2))
except TypeError as e:
    print("TypeError", e)
if hasattr(torch.nn.utils, "get_total_norm"):
    print(torch.nn.utils.get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])]))
    g = [torch.tensor([3.0, 4.0])]
    torch.nn.utils.clip_grads_with_norm_([nn.Parameter(torch.zeros(2))], 1.0, torch.tensor(5.0))
    print(torch.nn.utils.get_total_norm(g, norm_type=1))
