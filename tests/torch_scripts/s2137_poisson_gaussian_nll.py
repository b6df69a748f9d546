import torch
import torch.nn as nn
import torch.nn.functional as F

rate_log = torch.tensor([0.0, 1.0, -1.0, 2.0], requires_grad=True)
counts = torch.tensor([1.0, 3.0, 0.0, 10.0])
print(F.poisson_nll_loss(rate_log, counts).detach().round(decimals=6))
print(F.poisson_nll_loss(rate_log, counts, full=True, reduction="none").detach().round(decimals=5))
rates = rate_log.detach().exp()
print(F.poisson_nll_loss(rates, counts, log_input=False, eps=1e-8).round(decimals=6))
l = nn.PoissonNLLLoss(log_input=True, full=True, reduction="sum")(rate_log, counts)
l.backward()
print(l.detach().round(decimals=5), rate_log.grad.round(decimals=5))
mu = torch.tensor([[0.0, 1.0], [2.0, -1.0]], requires_grad=True)
y = torch.tensor([[0.5, 1.0], [1.0, 0.0]])
var = torch.tensor([[1.0, 0.5], [2.0, 1e-9]], requires_grad=True)
g = F.gaussian_nll_loss(mu, y, var, reduction="none")
print(g.detach().round(decimals=4))
g2 = F.gaussian_nll_loss(mu, y, var, full=True, eps=1e-3)
g2.backward()
print(g2.detach().round(decimals=5), mu.grad.round(decimals=4), var.grad.round(decimals=4))
hv = F.gaussian_nll_loss(mu.detach(), y, torch.tensor([[1.0], [2.0]]))
print(hv.round(decimals=6))
