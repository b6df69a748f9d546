import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, parameters_to_vector, vector_to_parameters

model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape) * (i + 1))
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
model(x).pow(2).sum().backward()
total = clip_grad_norm_(model.parameters(), max_norm=1.0)
print(round(total.item(), 5))
print(round(torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters())).item(), 5))
model.zero_grad()
model(x).pow(2).sum().backward()
print(round(clip_grad_norm_(model.parameters(), 2.0, norm_type=float("inf")).item(), 5))
print(round(clip_grad_norm_(model.parameters(), 5.0, norm_type=1).item(), 5))
clip_grad_value_(model.parameters(), clip_value=0.05)
print(model[0].weight.grad)
vec = parameters_to_vector(model.parameters())
print(vec.shape, round(vec.sum().item(), 6))
vector_to_parameters(torch.arange(vec.numel(), dtype=vec.dtype), model.parameters())
print(model[2].bias)
print(torch.nn.utils.get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])]) if hasattr(torch.nn.utils, "get_total_norm") else None)
empty = clip_grad_norm_([], 1.0)
print(empty)
