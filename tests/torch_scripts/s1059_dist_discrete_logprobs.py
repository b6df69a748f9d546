# Discrete distributions: Binomial, Poisson, Geometric, NegativeBinomial, OneHotCategorical
import torch
import torch.distributions as dist

print(dist.Binomial(10, probs=torch.tensor([0.2, 0.7])).log_prob(torch.tensor([3.0, 7.0])))
print(dist.Poisson(torch.tensor([1.5, 4.0])).log_prob(torch.tensor([0.0, 5.0])))
print(dist.Geometric(probs=torch.tensor(0.3)).log_prob(torch.tensor([0.0, 2.0])))
print(dist.NegativeBinomial(total_count=5, probs=torch.tensor(0.4)).log_prob(torch.tensor([0.0, 3.0])))
oh = dist.OneHotCategorical(probs=torch.tensor([0.1, 0.6, 0.3]))
print(oh.log_prob(torch.tensor([0.0, 1.0, 0.0])), oh.sample().shape, oh.enumerate_support())
b = dist.Bernoulli(logits=torch.tensor([-1.0, 0.0, 2.0]))
print(b.probs, b.entropy(), b.enumerate_support())
print(dist.Binomial(4, torch.tensor(0.5)).mean, dist.Binomial(4, torch.tensor(0.5)).variance)
c = dist.Categorical(probs=torch.tensor([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]))
print(c.log_prob(torch.tensor([1, 2])), c.entropy(), c.param_shape)
