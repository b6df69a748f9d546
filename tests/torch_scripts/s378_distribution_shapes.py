import torch
from torch.distributions import Normal, Categorical, Dirichlet, MultivariateNormal, Independent, Bernoulli, Poisson, Binomial, Uniform, Beta

d = Normal(torch.zeros(3, 2), torch.ones(3, 2))
print(d.batch_shape, d.event_shape, d.sample((5,)).shape, d.log_prob(torch.zeros(3, 2)).shape)
e = d.expand(torch.Size([4, 3, 2]))
print(e.batch_shape, e.sample().shape)
i = Independent(d, 1)
print(i.batch_shape, i.event_shape, i.log_prob(torch.zeros(3, 2)).shape, i)
c = Categorical(logits=torch.zeros(2, 5))
print(c.batch_shape, c.event_shape, c.sample((3,)).shape, c.enumerate_support().shape, c.enumerate_support(expand=False).shape, c.param_shape)
dr = Dirichlet(torch.ones(2, 4))
print(dr.batch_shape, dr.event_shape, dr.rsample().shape, dr.log_prob(torch.full((2, 4), 0.25)))
mv = MultivariateNormal(torch.zeros(2, 3), torch.eye(3))
print(mv.batch_shape, mv.event_shape, mv.sample((6,)).shape, mv.log_prob(torch.zeros(6, 2, 3)).shape)
b = Bernoulli(torch.tensor([0.2, 0.8]))
print(b.enumerate_support(), b.has_enumerate_support, b.support, Normal(0, 1).support, Uniform(0, 2).support, Beta(1, 1).support)
print(Binomial(5, torch.tensor([0.5])).enumerate_support().flatten(), Poisson(2.0).has_enumerate_support)
print(Normal(0.0, 1.0).cdf(torch.tensor([0.0, 1.96])), Normal(0.0, 1.0).icdf(torch.tensor([0.5, 0.975])))
try:
    Normal(torch.zeros(2), -torch.ones(2))
except ValueError as ex:
    print("ValueError:", str(ex)[:80])
try:
    Categorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor(2))
except ValueError as ex:
    print("ValueError:", str(ex)[:80])
print(Normal(torch.tensor([0.0]), 1.0, validate_args=False).log_prob(torch.tensor([float("nan")])))
print(Categorical(probs=torch.tensor([1.0, 3.0])).probs, Categorical(probs=torch.tensor([0.25, 0.75])).logits)
print(d.mean.shape, d.stddev.shape, d.entropy().shape, c.entropy(), dr.mean, mv.covariance_matrix.shape)
print(repr(Normal(torch.tensor(0.0), torch.tensor(1.0))), repr(c), repr(mv))
