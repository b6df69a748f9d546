# Printing distributions, constraints and transforms objects
import torch
import torch.distributions as D
from torch.distributions import constraints, transforms as T

print(D.Normal(0.0, 1.0), D.Normal(torch.zeros(2), torch.ones(2)))
print(D.Categorical(probs=torch.tensor([0.25, 0.75])), D.Bernoulli(logits=torch.tensor(0.0)))
print(D.MultivariateNormal(torch.zeros(2), torch.eye(2)))
print(D.Independent(D.Normal(torch.zeros(3), 1.0), 1), D.Uniform(0.0, 2.0), D.Gamma(torch.tensor([1.0, 2.0]), 1.0))
print(D.Beta(2.0, 3.0), D.Dirichlet(torch.ones(3)), D.Poisson(torch.tensor(4.0)), D.Binomial(5, torch.tensor(0.3)))
print(constraints.positive, constraints.real, constraints.interval(0.0, 1.0), constraints.simplex, constraints.greater_than(2.0), constraints.integer_interval(0, 3))
print(T.ExpTransform(), T.AffineTransform(1.0, 2.0), T.ComposeTransform([T.ExpTransform(), T.SigmoidTransform()]), T.ExpTransform().inv)
print(D.TransformedDistribution(D.Normal(0.0, 1.0), [T.ExpTransform()]), D.LogNormal(0.0, 1.0))
print(D.Normal.arg_constraints, D.Categorical(torch.tensor([0.5, 0.5])).support, D.Normal(0.0, 1.0).support)
