import torch
import torch.nn as nn

rate_log = torch.tensor([0.0, 1.0, -0.5, 2.0], requires_grad=True)
counts = torch.tensor([1.0, 3.0, 0.0, 6.0])
for full in [False, True]:
    loss = nn.PoissonNLLLoss(log_input=True, full=full)(rate_log, counts)
    print("log_input", full, round(loss.item(), 6))
rate = torch.tensor([0.5, 2.5, 0.01, 7.0], requires_grad=True)
loss = nn.PoissonNLLLoss(log_input=False, full=True, eps=1e-6, reduction="sum")(rate, counts)
loss.backward()
print(round(loss.item(), 6), rate.grad.round(decimals=5))
print(nn.PoissonNLLLoss(reduction="none")(rate_log, counts).detach().round(decimals=5))
mu = torch.tensor([[0.0, 1.0], [2.0, -1.0], [0.5, 0.5]], requires_grad=True)
target = torch.tensor([[0.1, 0.8], [2.5, -1.0], [0.0, 1.0]])
var_full = torch.tensor([[1.0, 0.5], [0.2, 2.0], [1e-9, 1.0]], requires_grad=True)
g = nn.GaussianNLLLoss(eps=1e-3)(mu, target, var_full)
g.backward()
print(round(g.item(), 6), var_full.grad.round(decimals=4))
print(nn.GaussianNLLLoss(full=True, reduction="sum")(mu, target, var_full).item().__round__(6))
hom = torch.tensor([[0.5], [1.0], [2.0]])
print(nn.GaussianNLLLoss(reduction="none")(mu, target, hom).detach().round(decimals=5))
print(nn.GaussianNLLLoss()(mu[0], target[0], torch.tensor(0.7)).item().__round__(6))
try:
    nn.GaussianNLLLoss()(mu, target, -torch.ones(3, 2))
except ValueError as e:
    print("ValueError:", e)
