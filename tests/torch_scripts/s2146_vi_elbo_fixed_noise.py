import torch
from torch.distributions import Normal, kl_divergence

# Bayesian linear regression slope, mean-field Gaussian posterior, fixed base noise
x = torch.linspace(-1, 1, 10)
y = 2.0 * x + 0.3 * torch.sin(5 * x)
eps = torch.tensor([-1.2, -0.4, 0.0, 0.5, 1.1, -0.8, 0.3, 1.7])
mu = torch.tensor(0.0, requires_grad=True)
rho = torch.tensor(-1.0, requires_grad=True)
prior = Normal(0.0, 3.0)
opt = torch.optim.Adam([mu, rho], lr=0.1)
for it in range(40):
    sigma = torch.nn.functional.softplus(rho)
    q = Normal(mu, sigma)
    w = mu + sigma * eps
    loglik = Normal(w[:, None] * x[None, :], 0.3).log_prob(y[None, :]).sum(1).mean()
    elbo = loglik - kl_divergence(q, prior)
    opt.zero_grad()
    (-elbo).backward()
    opt.step()
    if it % 10 == 0:
        print(it, round(elbo.item(), 4))
print(round(mu.item(), 3), round(torch.nn.functional.softplus(rho).item(), 4))
print(q.batch_shape, q.rsample().requires_grad if False else q.mean.requires_grad)
