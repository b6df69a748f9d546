import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1))
x = torch.tensor([[1.0, 2.0, -1.0], [0.0, 1.0, 3.0]])


def fresh():
    net.zero_grad()
    (net(x) ** 2).sum().backward()


fresh()
print(round(clip_grad_norm_(net.parameters(), max_norm=1.0).item(), 6))
print(round(torch.norm(torch.stack([p.grad.norm() for p in net.parameters()])).item(), 6))
fresh()
print(round(clip_grad_norm_(net.parameters(), 0.5, norm_type=float("inf")).item(), 6),
      max(p.grad.abs().max().item() for p in net.parameters()))
fresh()
print(round(clip_grad_norm_(net.parameters(), 2.0, norm_type=1).item(), 6))
fresh()
clip_grad_value_(net.parameters(), clip_value=0.3)
print(net[0].weight.grad)
fresh()
net[2].bias.grad[0] = float("nan")
try:
    clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:90])
print(clip_grad_norm_(net.parameters(), 1.0))
w = torch.tensor([3.0, 4.0], requires_grad=True)
w.grad = torch.tensor([3.0, 4.0])
print(clip_grad_norm_(w, 1.0), w.grad, clip_grad_norm_([], 1.0))
