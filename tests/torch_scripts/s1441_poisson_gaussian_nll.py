# poisson_nll_loss and gaussian_nll_loss: options and gradients w.r.t. mean and variance
import torch
import torch.nn.functional as F

rate = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
k = torch.tensor([0.0, 2.0, 5.0])
for kw in [dict(log_input=True), dict(log_input=False), dict(log_input=False, full=True), dict(log_input=True, full=True)]:
    rate.grad = None
    l = F.poisson_nll_loss(rate, k, **kw)
    l.backward()
    print(l.detach(), rate.grad)
mu = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
var = torch.tensor([1.0, 0.5, 1e-8], requires_grad=True)
l = F.gaussian_nll_loss(mu, torch.tensor([0.5, 1.0, 1.0]), var, full=True)
l.backward()
print(l.detach(), mu.grad, var.grad)
