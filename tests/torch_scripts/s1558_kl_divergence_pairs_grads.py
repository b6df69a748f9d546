# KL divergences between common pairs and their gradients with respect to parameters
import torch
from torch.distributions import Normal, Bernoulli, Categorical, Beta, Gamma, kl_divergence

mu = torch.tensor([0.0, 1.0], requires_grad=True)
sd = torch.tensor([1.0, 0.5], requires_grad=True)
kl = kl_divergence(Normal(mu, sd), Normal(0.0, 1.0))
print(kl)
kl.sum().backward()
print(mu.grad, sd.grad)
p = torch.tensor([0.2, 0.9], requires_grad=True)
klb = kl_divergence(Bernoulli(p), Bernoulli(torch.tensor([0.5, 0.5])))
klb.sum().backward()
print(klb, p.grad)
logits = torch.tensor([1.0, 0.0, -1.0], requires_grad=True)
klc = kl_divergence(Categorical(logits=logits), Categorical(probs=torch.tensor([0.2, 0.3, 0.5])))
klc.backward()
print(klc, logits.grad)
a = torch.tensor(2.0, requires_grad=True)
print(kl_divergence(Beta(a, torch.tensor(3.0)), Beta(torch.tensor(1.0), torch.tensor(1.0))))
print(kl_divergence(Gamma(torch.tensor(2.0), torch.tensor(1.0)), Gamma(torch.tensor(3.0), torch.tensor(2.0))))
try:
    kl_divergence(Normal(0.0, 1.0), torch.distributions.Uniform(0.0, 1.0))
except NotImplementedError as e:
    print("NotImplementedError", e)
