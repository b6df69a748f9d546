# Reparameterized gradients: ELBO-like objective with a fixed epsilon
import torch
from torch.distributions import Normal, kl_divergence

mu = torch.tensor([0.5, -0.2], requires_grad=True)
log_sigma = torch.tensor([0.1, -0.3], requires_grad=True)
q = Normal(mu, log_sigma.exp())
eps = torch.tensor([0.3, -1.1])
z = mu + log_sigma.exp() * eps
p = Normal(torch.zeros(2), torch.ones(2))
elbo = p.log_prob(z).sum() - q.log_prob(z).sum()
kl = kl_divergence(q, p).sum()
(-(elbo) + kl).backward()
print(mu.grad, log_sigma.grad)
print(q.has_rsample, p.support, q.stddev)
print(Normal(0.0, 1.0).cdf(torch.tensor([-1.0, 0.0, 1.96])), Normal(0.0, 1.0).icdf(torch.tensor([0.025, 0.5])))
print(q.batch_shape, q.expand(torch.Size([3, 2])).batch_shape)
