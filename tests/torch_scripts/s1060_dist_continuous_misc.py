# Continuous distributions with fixed values: Gamma, Beta, Dirichlet, StudentT, Laplace, Cauchy
import torch
import torch.distributions as D

g = D.Gamma(torch.tensor(2.0), torch.tensor(3.0))
print(g.log_prob(torch.tensor([0.5, 1.0])), g.mean, g.variance, g.entropy())
b = D.Beta(torch.tensor(2.0), torch.tensor(5.0))
print(b.log_prob(torch.tensor(0.3)), b.mean, b.entropy())
d = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
print(d.log_prob(torch.tensor([0.2, 0.3, 0.5])), d.mean, d.entropy())
s = D.StudentT(df=3.0, loc=1.0, scale=2.0)
print(s.log_prob(torch.tensor([0.0, 1.0])), s.variance, s.entropy())
print(D.Laplace(0.0, 2.0).log_prob(torch.tensor(1.0)), D.Laplace(0.0, 2.0).cdf(torch.tensor(1.0)))
print(D.Cauchy(0.0, 1.0).log_prob(torch.tensor(2.0)), D.Cauchy(0.0, 1.0).icdf(torch.tensor(0.75)))
print(D.Uniform(-1.0, 3.0).log_prob(torch.tensor([0.0, 2.0])), D.Uniform(-1.0, 3.0).entropy())
print(D.Exponential(2.0).cdf(torch.tensor(0.5)), D.HalfNormal(2.0).log_prob(torch.tensor(1.0)))
print(D.kl_divergence(D.Gamma(2.0, 3.0), D.Gamma(1.0, 1.0)))
print(D.kl_divergence(D.Beta(2.0, 3.0), D.Beta(1.0, 1.0)))
