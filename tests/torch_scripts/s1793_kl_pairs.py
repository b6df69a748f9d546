# kl_divergence across distribution pairs, and a custom register_kl
import torch
import torch.distributions as D

pairs = [
    (D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)),
    (D.Bernoulli(0.3), D.Bernoulli(0.6)),
    (D.Beta(2.0, 3.0), D.Beta(1.0, 1.5)),
    (D.Gamma(2.0, 1.0), D.Gamma(3.0, 2.0)),
    (D.Exponential(2.0), D.Exponential(0.5)),
    (D.Poisson(3.0), D.Poisson(4.0)),
    (D.Categorical(torch.tensor([0.2, 0.3, 0.5])), D.Categorical(torch.tensor([0.1, 0.1, 0.8]))),
    (D.Dirichlet(torch.tensor([1.0, 2.0])), D.Dirichlet(torch.tensor([2.0, 2.0]))),
    (D.Laplace(0.0, 1.0), D.Laplace(1.0, 2.0)),
    (D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0)),
    (D.Uniform(0.0, 1.0), D.Normal(0.0, 1.0)),
    (D.Exponential(1.0), D.Gamma(2.0, 1.0)),
    (D.Geometric(0.3), D.Geometric(0.5)),
    (D.Binomial(5, 0.3), D.Binomial(5, 0.6)),
    (D.MultivariateNormal(torch.zeros(2), torch.eye(2)),
     D.MultivariateNormal(torch.ones(2), torch.tensor([[2.0, 0.5], [0.5, 1.0]]))),
    (D.Independent(D.Normal(torch.zeros(3), 1.0), 1), D.Independent(D.Normal(torch.ones(3), 2.0), 1)),
    (D.OneHotCategorical(torch.tensor([0.5, 0.5])), D.OneHotCategorical(torch.tensor([0.9, 0.1]))),
    (D.HalfNormal(1.0), D.HalfNormal(2.0)),
    (D.Gumbel(0.0, 1.0), D.Gumbel(1.0, 2.0)),
    (D.Uniform(0.0, 1.0), D.Beta(2.0, 2.0)),
]
for p, q in pairs:
    print(type(p).__name__, type(q).__name__, D.kl_divergence(p, q))
try:
    D.kl_divergence(D.Normal(0.0, 1.0), D.Uniform(0.0, 1.0))
    print("no error")
except NotImplementedError as e:
    print("NotImplementedError", e)


class MyDist(D.Normal):
    pass


@D.register_kl(MyDist, MyDist)
def _kl_mine(p, q):
    return torch.tensor(42.0)


print(D.kl_divergence(MyDist(0.0, 1.0), MyDist(1.0, 1.0)))
print(D.kl_divergence(MyDist(0.0, 1.0), D.Normal(1.0, 1.0)))
