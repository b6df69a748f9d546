# reparameterisation trick with fixed noise: gradients of the sample w.r.t. loc and scale
import torch

eps = torch.tensor([0.3, -1.2, 0.8])
loc = torch.tensor(1.0, requires_grad=True)
log_scale = torch.tensor(-0.5, requires_grad=True)
z = loc + log_scale.exp() * eps
loss = (z ** 2).mean()
loss.backward()
print(z, loss, loc.grad, log_scale.grad)
d = torch.distributions.Normal(torch.tensor(0.0), torch.tensor(1.0))
print(d.has_rsample, torch.distributions.Bernoulli(0.5).has_rsample)
print(d.cdf(torch.tensor([0.0, 1.0])), d.icdf(torch.tensor([0.5, 0.975])))
