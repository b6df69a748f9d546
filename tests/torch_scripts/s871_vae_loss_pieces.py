# The VAE loss by hand: reparameterisation with a fixed eps, KL against N(0, 1) in closed
# form vs kl_divergence, BCE reconstruction with sum reduction, beta weighting
import torch
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence

mu = torch.tensor([[0.5, -0.3], [1.0, 0.0]], requires_grad=True)
logvar = torch.tensor([[0.0, -1.0], [0.2, 0.5]], requires_grad=True)
eps = torch.tensor([[0.1, -0.2], [0.3, 0.4]])
std = torch.exp(0.5 * logvar)
z = mu + eps * std
kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
kl2 = kl_divergence(Normal(mu, std), Normal(torch.zeros(2), torch.ones(2))).sum()
print(z, kl, kl2, torch.allclose(kl, kl2))
x = torch.tensor([[0.0, 1.0, 1.0], [1.0, 0.0, 0.5]])
dec = torch.sigmoid(z @ torch.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -0.4]]))
rec = F.binary_cross_entropy(dec, x, reduction="sum")
beta = 0.5
loss = rec + beta * kl
loss.backward()
print(rec, loss, mu.grad, logvar.grad)
