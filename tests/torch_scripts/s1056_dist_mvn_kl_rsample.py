# MultivariateNormal with scale_tril, rsample shapes, log_prob, KL between two MVNs
import torch
from torch.distributions import MultivariateNormal, Normal, kl_divergence, Independent

L = torch.tensor([[1.0, 0.0], [0.5, 2.0]])
mu = torch.tensor([0.5, -1.0], requires_grad=True)
p = MultivariateNormal(mu, scale_tril=L)
q = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.eye(2) * 2)
print(p.batch_shape, p.event_shape, p.rsample((3, 5)).shape)
print(p.covariance_matrix, p.precision_matrix)
print(p.log_prob(torch.tensor([[0.0, 0.0], [1.0, 1.0]])))
kl = kl_divergence(p, q)
print(kl)
kl.backward()
print(mu.grad)
print(p.entropy(), p.variance, p.mean)
ind = Independent(Normal(torch.zeros(3), torch.ones(3) * 2), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.ones(3)))
print(kl_divergence(ind, Independent(Normal(torch.ones(3), torch.ones(3)), 1)))
