# clip_grad_norm_ on a model with a parameter without grad; a single tensor argument
import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
with torch.no_grad():
    for p in net.parameters():
        p.fill_(0.5)
net[1].weight.requires_grad_(False)
net(torch.tensor([[1.0, 2.0]])).sum().backward()
print([None if p.grad is None else p.grad.tolist() for p in net.parameters()])
total = torch.nn.utils.clip_grad_norm_(net.parameters(), 0.1)
print(total)
print(net[0].weight.grad)
w = torch.nn.Parameter(torch.tensor([6.0, 8.0]))
w.grad = torch.tensor([6.0, 8.0])
print(torch.nn.utils.clip_grad_norm_(w, 5.0), w.grad)
