# sample shapes across distributions: sample_shape x batch_shape x event_shape, expand
import torch
from torch import distributions as D

dists = [D.Normal(torch.zeros(3), 1.0), D.Categorical(logits=torch.zeros(2, 4)),
         D.MultivariateNormal(torch.zeros(2, 3), torch.eye(3)), D.Dirichlet(torch.ones(5)),
         D.Independent(D.Normal(torch.zeros(2, 3), 1.0), 1), D.Bernoulli(torch.full((2,), 0.5)),
         D.OneHotCategorical(probs=torch.ones(3) / 3), D.Poisson(torch.tensor([1.0, 2.0]))]
for d in dists:
    s = d.sample((4, 2))
    print(type(d).__name__, tuple(d.batch_shape), tuple(d.event_shape), tuple(s.shape),
          tuple(d.log_prob(s).shape))
e = D.Normal(torch.zeros(1), 1.0).expand((5, 1))
print(e.batch_shape, e.sample().shape, e.log_prob(torch.zeros(5, 1)).shape)
print(D.Categorical(logits=torch.zeros(3)).enumerate_support().shape, D.Bernoulli(0.3).enumerate_support(expand=False))
