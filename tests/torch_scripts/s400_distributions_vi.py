import torch
import torch.distributions as D

mu = torch.tensor([0.5, -1.0], requires_grad=True)
log_sigma = torch.tensor([0.1, -0.3], requires_grad=True)
q = D.Normal(mu, log_sigma.exp())
p = D.Normal(torch.zeros(2), torch.ones(2))
eps = torch.tensor([[0.3, -0.2], [1.0, 0.5], [-0.7, 0.1]])
z = mu + log_sigma.exp() * eps
elbo = (p.log_prob(z) - q.log_prob(z)).sum(-1).mean()
kl = D.kl_divergence(q, p).sum()
(kl - elbo).backward()
print(round(elbo.item(), 6), round(kl.item(), 6), mu.grad, log_sigma.grad)
mvn = D.MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 0.0], [0.5, 2.0]]))
print(mvn.log_prob(torch.tensor([[0.1, 0.2], [1.0, -1.0]])), mvn.entropy(), mvn.covariance_matrix)
ind = D.Independent(D.Normal(torch.zeros(3, 2), 1.0), 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(torch.zeros(3, 2)))
cat = D.Categorical(logits=torch.tensor([1.0, 2.0, 0.5]))
print(cat.probs, cat.entropy(), cat.log_prob(torch.tensor([0, 2])))
mix = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), D.Normal(torch.tensor([-1.0, 2.0]), torch.tensor([0.5, 1.0])))
print(mix.log_prob(torch.tensor([0.0, 1.5])), mix.mean, mix.variance)
for d in [D.Gamma(2.0, 3.0), D.Beta(2.0, 5.0), D.Poisson(3.0), D.Bernoulli(probs=0.3), D.Laplace(0.0, 2.0), D.StudentT(3.0), D.LogNormal(0.0, 0.5)]:
    print(type(d).__name__, d.log_prob(torch.tensor(1.0)).round(decimals=5), d.mean, d.sample((2,)).shape, d.has_rsample)
try:
    D.Normal(0.0, -1.0)
except ValueError as e:
    print("ValueError", str(e)[:60])
