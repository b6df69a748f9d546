# kl_divergence between fixed distributions, entropy, and grads of log_prob w.r.t. parameters
import torch
from torch.distributions import Normal, kl_divergence, Categorical, MultivariateNormal, Laplace, Exponential

mu = torch.tensor([0.0, 1.0], requires_grad=True)
sd = torch.tensor([1.0, 0.5], requires_grad=True)
p = Normal(mu, sd)
q = Normal(torch.tensor([1.0, 1.0]), torch.tensor([2.0, 1.0]))
kl = kl_divergence(p, q)
print(kl.round(decimals=6))
kl.sum().backward()
print(mu.grad.round(decimals=6), sd.grad.round(decimals=6))
c1 = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
c2 = Categorical(probs=torch.tensor([0.25, 0.25, 0.5]))
print(kl_divergence(c1, c2).round(decimals=6), c1.entropy().round(decimals=6))
mv = MultivariateNormal(torch.zeros(2), torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(mv.log_prob(torch.tensor([1.0, -1.0])).round(decimals=6), mv.entropy().round(decimals=6))
print(kl_divergence(mv, MultivariateNormal(torch.ones(2), torch.eye(2))).round(decimals=6))
print(Laplace(0.0, 2.0).log_prob(torch.tensor(1.0)).round(decimals=6), Exponential(2.0).entropy().round(decimals=6))
print(kl_divergence(Exponential(torch.tensor(2.0)), Exponential(torch.tensor(1.0))).round(decimals=6))
