# kl_divergence registry pairs with fixed params: Bernoulli, Categorical, Poisson, Exponential, Uniform-Normal, Laplace, Dirichlet; register_kl
import torch
import torch.distributions as D

print(D.kl_divergence(D.Bernoulli(0.3), D.Bernoulli(0.6)), D.kl_divergence(D.Categorical(torch.tensor([0.2, 0.8])), D.Categorical(torch.tensor([0.5, 0.5]))))
print(D.kl_divergence(D.Poisson(2.0), D.Poisson(3.0)), D.kl_divergence(D.Exponential(1.0), D.Exponential(2.0)))
print(D.kl_divergence(D.Uniform(0.0, 1.0), D.Normal(0.0, 1.0)), D.kl_divergence(D.Laplace(0.0, 1.0), D.Laplace(1.0, 2.0)))
print(D.kl_divergence(D.Dirichlet(torch.tensor([1.0, 2.0])), D.Dirichlet(torch.tensor([2.0, 2.0]))))
print(D.kl_divergence(D.Normal(torch.zeros(2), torch.ones(2)), D.Normal(torch.ones(2), torch.tensor([1.0, 2.0]))))
print(D.kl_divergence(D.Gamma(2.0, 1.0), D.Exponential(1.0)), D.kl_divergence(D.Beta(2.0, 2.0), D.Uniform(0.0, 1.0)))
print(D.kl_divergence(D.Normal(0.0, 1.0), D.Uniform(-1.0, 1.0)))
class MyNormal(D.Normal):
    pass
@D.register_kl(MyNormal, MyNormal)
def _kl(p, q):
    return torch.tensor(42.0)
print(D.kl_divergence(MyNormal(0.0, 1.0), MyNormal(1.0, 1.0)), D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 1.0)))
try:
    D.kl_divergence(D.Beta(1.0, 1.0), D.Poisson(1.0))
except NotImplementedError as e:
    print("NotImplementedError")
