import torch
from torch.distributions import MixtureSameFamily, Categorical, Normal, MultivariateNormal, Independent

data = torch.cat([torch.linspace(-3, -1, 8), torch.linspace(1, 4, 10)]).unsqueeze(1)
K = 2
pi = torch.tensor([0.5, 0.5])
mu = torch.tensor([[-0.5], [0.5]])
var = torch.tensor([[1.0], [1.0]])
for it in range(10):
    comp = Independent(Normal(mu, var.sqrt()), 1)
    log_r = comp.log_prob(data.unsqueeze(1)) + pi.log()
    r = (log_r - log_r.logsumexp(1, keepdim=True)).exp()
    Nk = r.sum(0)
    pi = Nk / Nk.sum()
    mu = (r.T @ data) / Nk.unsqueeze(1)
    var = (r.T @ data ** 2) / Nk.unsqueeze(1) - mu ** 2
    if it % 3 == 0:
        print(it, pi.round(decimals=4), mu.flatten().round(decimals=4))
gmm = MixtureSameFamily(Categorical(pi), Independent(Normal(mu, var.sqrt()), 1))
print(gmm.batch_shape, gmm.event_shape, round(gmm.log_prob(data).sum().item(), 5))
print(gmm.mean.round(decimals=5), gmm.variance.round(decimals=5))
logits = torch.zeros(3, requires_grad=True)
locs = torch.tensor([[-1.0, 0.0], [0.0, 1.0], [2.0, 2.0]], requires_grad=True)
g2 = MixtureSameFamily(Categorical(logits=logits), MultivariateNormal(locs, torch.eye(2).expand(3, 2, 2)))
pts = torch.tensor([[0.0, 0.0], [1.0, 2.0], [-1.0, 0.5]])
lp = g2.log_prob(pts)
lp.sum().backward()
print(lp.round(decimals=5), logits.grad.round(decimals=5), locs.grad.round(decimals=5))
print(g2.sample((4,)).shape, g2.component_distribution.batch_shape, g2.mixture_distribution.probs)
m1 = MixtureSameFamily(Categorical(torch.tensor([0.3, 0.7])), Normal(torch.tensor([0.0, 2.0]), torch.tensor([1.0, 0.5])))
print(m1.cdf(torch.tensor([0.0, 1.0, 3.0])).round(decimals=5), m1.log_prob(torch.tensor(1.0)).round(decimals=5))
print(m1)
