import torch
import torch.nn as nn

mean = torch.tensor([[0.5, 1.0], [2.0, -1.0], [0.0, 0.3]], requires_grad=True)
var = torch.tensor([[0.5, 1.5], [0.2, 1.0], [3.0, 0.1]], requires_grad=True)
target = torch.tensor([[0.0, 1.2], [1.5, -0.5], [0.4, 0.3]])
for red in ["mean", "sum", "none"]:
    loss = nn.GaussianNLLLoss(reduction=red)(mean, target, var)
    print(red, loss.detach().round(decimals=6))
loss = nn.GaussianNLLLoss(full=True, eps=1e-3)(mean, target, var)
loss.backward()
print(round(loss.item(), 6))
print(mean.grad.round(decimals=5))
print(var.grad.round(decimals=5))
shared = torch.tensor([[0.5], [1.0], [2.0]])
print(round(nn.functional.gaussian_nll_loss(mean.detach(), target, shared).item(), 6))
try:
    nn.functional.gaussian_nll_loss(mean.detach(), target, -shared)
except ValueError as e:
    print("ValueError", e)
