import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_, get_total_norm, clip_grads_with_norm_

model = nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]]))
    model.bias.copy_(torch.tensor([0.1, -0.1]))
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 4.0]])
y = torch.tensor([[0.0, 1.0], [1.0, 0.0]])
opt = torch.optim.SGD(model.parameters(), lr=0.05)
history = []
for step in range(5):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).sum()
    loss.backward()
    norm = clip_grad_norm_(model.parameters(), max_norm=2.0)
    history.append(round(norm.item(), 4))
    opt.step()
print(history)
print(model.weight.detach().round(decimals=4))
opt.zero_grad()
((model(x) - y) ** 2).sum().backward()
inf_norm = clip_grad_norm_(model.parameters(), 1.0, norm_type="inf")
print(round(inf_norm.item(), 4), model.weight.grad.abs().max().item() <= 1.0 + 1e-6)
one_norm = clip_grad_norm_(model.parameters(), 0.5, norm_type=1)
print(round(one_norm.item(), 4))
clip_grad_value_(model.parameters(), clip_value=0.01)
print(model.bias.grad.abs().max().item() <= 0.01)
grads = [p.grad for p in model.parameters()]
tot = get_total_norm(grads, norm_type=2.0)
clip_grads_with_norm_(model.parameters(), 0.001, tot)
print(round(get_total_norm([p.grad for p in model.parameters()]).item(), 6))
