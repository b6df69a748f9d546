# a tiny VAE ELBO with fixed noise: reparameterised sample, KL to the prior, parameter grads
import torch
import torch.nn as nn
from torch.distributions import Normal, kl_divergence

enc = nn.Linear(3, 4)
dec = nn.Linear(2, 3)
with torch.no_grad():
    for i, p in enumerate(list(enc.parameters()) + list(dec.parameters())):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.3 * i))
x = torch.tensor([[0.2, -0.4, 1.0], [1.5, 0.0, -0.3]])
eps = torch.tensor([[0.3, -1.1], [0.7, 0.2]])
stats = enc(x)
mu, log_sigma = stats[:, :2], stats[:, 2:]
q = Normal(mu, log_sigma.exp())
z = mu + log_sigma.exp() * eps
recon = Normal(dec(z), 1.0).log_prob(x).sum(-1)
kl = kl_divergence(q, Normal(0.0, 1.0)).sum(-1)
elbo = (recon - kl).mean()
(-elbo).backward()
print(round(elbo.item(), 8), kl.detach(), recon.detach())
print(enc.weight.grad, dec.bias.grad)
