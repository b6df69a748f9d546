# Distributions as used in ML code: Normal log_prob/cdf/icdf/entropy, kl_divergence, Independent,
# Bernoulli logits, Beta/Gamma means, rsample shapes, expand, batch/event shapes
import torch
from torch.distributions import Normal, Bernoulli, Beta, Gamma, Independent, kl_divergence, Uniform, Dirichlet
import torch.distributions as dist

mu = torch.tensor([0.0, 1.0], requires_grad=True)
sigma = torch.tensor([1.0, 2.0], requires_grad=True)
n = Normal(mu, sigma)
lp = n.log_prob(torch.tensor([0.5, -1.0]))
print(lp, n.cdf(torch.tensor([0.0, 1.0])), n.icdf(torch.tensor([0.975, 0.5])))
lp.sum().backward()
print(mu.grad, sigma.grad)
print(n.entropy(), n.mean, n.stddev, n.variance, n.batch_shape, n.event_shape)
torch.manual_seed(0)
print(n.sample((3,)).shape, n.rsample().requires_grad, n.sample().requires_grad)
q = Normal(torch.tensor([0.5, 0.5]), torch.tensor([1.0, 1.0]))
print(kl_divergence(n, q), kl_divergence(Independent(n, 1), Independent(q, 1)))
ind = Independent(Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(3, 2)))
bern = Bernoulli(logits=torch.tensor([0.0, 2.0, -1.0]))
print(bern.probs, bern.log_prob(torch.tensor([1.0, 0.0, 1.0])), bern.entropy(), bern.mean)
print(Beta(torch.tensor(2.0), torch.tensor(3.0)).mean, Gamma(torch.tensor(3.0), torch.tensor(2.0)).variance)
print(Beta(2.0, 5.0).log_prob(torch.tensor(0.3)), Gamma(2.0, 1.0).log_prob(torch.tensor([1.0, 2.0])))
u = Uniform(torch.tensor([0.0]), torch.tensor([2.0]))
print(u.log_prob(torch.tensor([1.0])), u.entropy(), u.expand(torch.Size([3, 1])).batch_shape)
d = Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
print(d.mean, d.log_prob(torch.tensor([0.2, 0.3, 0.5])), d.sample((2,)).shape)
mvn = dist.MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(mvn.log_prob(torch.tensor([1.0, -1.0])), mvn.scale_tril, mvn.entropy())
cat = dist.Categorical(logits=torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]))
print(cat.probs, cat.entropy(), cat.log_prob(torch.tensor([2, 0])), cat.sample().shape, cat.param_shape)
print(dist.Poisson(torch.tensor(3.0)).log_prob(torch.tensor(2.0)), dist.Exponential(2.0).mean)
print(dist.LogNormal(0.0, 1.0).mean, dist.Laplace(0.0, 2.0).log_prob(torch.tensor(1.0)), dist.StudentT(3.0).log_prob(torch.tensor(0.0)))
