# distributions: log_prob / entropy / cdf of fixed values (no sampling), batch and event shapes
import torch
from torch.distributions import Normal, Categorical, Bernoulli, Beta, Gamma, Independent, Poisson

n = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
v = torch.tensor([0.5, -1.0])
print(n.log_prob(v).round(decimals=6), n.entropy().round(decimals=6), n.cdf(v).round(decimals=6))
print(n.icdf(torch.tensor([0.5, 0.975])).round(decimals=5), n.batch_shape, n.event_shape)
ind = Independent(n, 1)
print(ind.log_prob(v).round(decimals=6), ind.batch_shape, ind.event_shape)
c = Categorical(logits=torch.tensor([1.0, 2.0, 3.0]))
print(c.probs.round(decimals=6), c.log_prob(torch.tensor([0, 2])).round(decimals=6), c.entropy().round(decimals=6))
b = Bernoulli(probs=torch.tensor(0.3))
print(b.log_prob(torch.tensor([0.0, 1.0])).round(decimals=6), b.entropy().round(decimals=6), b.mean, b.variance.round(decimals=4))
print(Beta(2.0, 3.0).log_prob(torch.tensor(0.4)).round(decimals=6), Gamma(2.0, 1.5).log_prob(torch.tensor(1.0)).round(decimals=6))
print(Poisson(torch.tensor(3.0)).log_prob(torch.tensor([0.0, 2.0, 5.0])).round(decimals=6))
print(Gamma(torch.tensor([2.0]), torch.tensor([1.5])).entropy().round(decimals=6), Beta(2.0, 3.0).mean)
