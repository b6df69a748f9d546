import torch
from torch.distributions import (Normal, Laplace, Gumbel, Beta, Gamma, Exponential, Uniform, Bernoulli, Categorical,
                                 Poisson, Binomial, Geometric, MultivariateNormal, Dirichlet, HalfNormal, Cauchy,
                                 OneHotCategorical, Independent, kl_divergence, LogNormal, Chi2, StudentT, Pareto)

pairs = [
    (Normal(0.5, 1.5), Normal(-0.2, 0.7)),
    (Laplace(0.0, 1.0), Laplace(1.0, 2.0)),
    (Beta(2.0, 3.0), Beta(1.5, 1.5)),
    (Gamma(2.0, 1.0), Gamma(3.0, 2.0)),
    (Exponential(1.0), Exponential(2.5)),
    (Uniform(0.0, 1.0), Uniform(-1.0, 2.0)),
    (Bernoulli(0.3), Bernoulli(0.6)),
    (Categorical(torch.tensor([0.2, 0.3, 0.5])), Categorical(logits=torch.tensor([0.0, 1.0, -1.0]))),
    (Poisson(2.0), Poisson(3.5)),
    (Geometric(0.3), Geometric(0.5)),
    (Dirichlet(torch.tensor([1.0, 2.0, 3.0])), Dirichlet(torch.tensor([2.0, 2.0, 2.0]))),
    (MultivariateNormal(torch.zeros(2), torch.tensor([[2.0, 0.5], [0.5, 1.0]])), MultivariateNormal(torch.ones(2), scale_tril=torch.tensor([[1.0, 0.0], [0.3, 0.8]]))),
    (Normal(0.0, 1.0), Laplace(0.0, 1.0)) if False else (Exponential(1.0), Gamma(2.0, 1.0)),
    (Gumbel(0.0, 1.0), Gumbel(1.0, 2.0)),
    (HalfNormal(1.0), HalfNormal(2.0)),
    (OneHotCategorical(torch.tensor([0.5, 0.5])), OneHotCategorical(torch.tensor([0.9, 0.1]))),
    (Independent(Normal(torch.zeros(3), torch.ones(3)), 1), Independent(Normal(torch.ones(3), 2 * torch.ones(3)), 1)),
    (Uniform(0.0, 1.0), Normal(0.0, 1.0)),
    (Beta(2.0, 2.0), Uniform(0.0, 1.0)) if False else (Exponential(2.0), Normal(0.0, 1.0)),
    (Gamma(2.0, 3.0), Exponential(1.0)),
]
for p, q in pairs:
    kl = kl_divergence(p, q)
    print(type(p).__name__, type(q).__name__, round(kl.item(), 6))
print(kl_divergence(Uniform(-1.0, 2.0), Uniform(0.0, 1.0)))
try:
    kl_divergence(Cauchy(0.0, 1.0), Normal(0.0, 1.0))
except NotImplementedError as e:
    print("NotImplementedError")
loc = torch.tensor([0.0, 1.0], requires_grad=True)
kl = kl_divergence(Normal(loc, torch.ones(2)), Normal(torch.zeros(2), 2 * torch.ones(2)))
kl.sum().backward()
print(kl, loc.grad)
for d in (LogNormal(0.0, 0.5), Chi2(3.0), StudentT(4.0, 1.0, 2.0), Pareto(1.0, 3.0), Cauchy(0.0, 2.0), Binomial(10, 0.3)):
    v = torch.tensor(2.0)
    print(type(d).__name__, round(d.log_prob(v).item(), 6), round(d.mean.item(), 5) if torch.isfinite(d.mean) else d.mean, d.entropy() if not isinstance(d, (Binomial,)) else d.entropy().round(decimals=5))
