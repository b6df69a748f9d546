# analytic KL divergences between distributions and their gradients (VAE-style)
import torch
from torch.distributions import Normal, kl_divergence, Categorical, MultivariateNormal

mu = torch.tensor([0.5, -1.0], requires_grad=True)
logvar = torch.tensor([0.0, 0.7], requires_grad=True)
q = Normal(mu, (0.5 * logvar).exp())
kl = kl_divergence(q, Normal(torch.zeros(2), torch.ones(2))).sum()
manual = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum()
print(kl, manual)
kl.backward()
print(mu.grad, logvar.grad)
print(kl_divergence(Categorical(probs=torch.tensor([0.2, 0.8])), Categorical(probs=torch.tensor([0.5, 0.5]))))
m1 = MultivariateNormal(torch.zeros(2), torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
m2 = MultivariateNormal(torch.ones(2), torch.eye(2))
print(kl_divergence(m1, m2))
