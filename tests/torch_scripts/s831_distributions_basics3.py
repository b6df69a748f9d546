# Distributions used in course notebooks: Normal.cdf/icdf, Bernoulli logits vs probs,
# Categorical entropy and log_prob, Independent event dims, MultivariateNormal log_prob
import torch
from torch.distributions import Bernoulli, Categorical, Independent, MultivariateNormal, Normal, Beta, Poisson

n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
print(n.cdf(torch.tensor([0.0, 3.0])), n.icdf(torch.tensor([0.5, 0.975])), n.entropy(), n.mean, n.stddev, n.variance)
print(n.log_prob(torch.tensor([0.5, 0.5])), n.batch_shape, n.event_shape)
ind = Independent(n, 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.tensor([0.5, 0.5])))
b = Bernoulli(logits=torch.tensor([0.0, 2.0]))
print(b.probs, b.log_prob(torch.tensor([1.0, 0.0])), b.entropy(), b.mean, b.variance)
c = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print(c.log_prob(torch.tensor([0, 2])), c.entropy(), c.logits, c.param_shape if hasattr(c, "param_shape") else None)
c2 = Categorical(logits=torch.tensor([[1.0, 2.0], [0.0, 0.0]]))
print(c2.probs, c2.batch_shape, c2.enumerate_support(), c2.mode if hasattr(c2, "mode") else None)
mvn = MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(mvn.log_prob(torch.tensor([1.0, -1.0])), mvn.entropy(), mvn.scale_tril, mvn.precision_matrix)
be = Beta(torch.tensor(2.0), torch.tensor(3.0))
print(be.mean, be.log_prob(torch.tensor(0.4)), be.entropy(), be.mode if hasattr(be, "mode") else None)
po = Poisson(torch.tensor([1.5, 4.0]))
print(po.log_prob(torch.tensor([0.0, 3.0])), po.mean, po.mode)
print(n, c, mvn)
mu = torch.tensor(0.5, requires_grad=True)
Normal(mu, 1.0).log_prob(torch.tensor(2.0)).backward()
print(mu.grad)
