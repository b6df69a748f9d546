import torch
from torch import distributions as D

cat = D.Categorical(logits=torch.tensor([0.0, 1.0, 2.0]))
print(cat.probs, cat.entropy(), cat.log_prob(torch.tensor([0, 2])), cat.param_shape, cat.support)
print(D.Categorical(probs=torch.tensor([[0.2, 0.8], [0.5, 0.5]])).logits, cat.enumerate_support())
ohc = D.OneHotCategorical(probs=torch.tensor([0.1, 0.6, 0.3]))
print(ohc.log_prob(torch.tensor([0.0, 1.0, 0.0])), ohc.event_shape, ohc.mean)
bi = D.Binomial(total_count=10, probs=torch.tensor(0.3))
print(bi.log_prob(torch.tensor([0.0, 3.0, 10.0])), bi.mean, bi.variance)
po = D.Poisson(torch.tensor([2.0, 0.5]))
print(po.log_prob(torch.tensor([1.0, 0.0])), po.mean, po.mode)
ga = D.Gamma(torch.tensor(2.0), torch.tensor(3.0))
print(ga.log_prob(torch.tensor(0.5)), ga.mean, ga.variance, ga.entropy(), ga.cdf(torch.tensor(1.0)))
be = D.Beta(torch.tensor(2.0), torch.tensor(5.0))
print(be.log_prob(torch.tensor(0.2)), be.mean, be.mode, be.entropy())
di = D.Dirichlet(torch.tensor([1.0, 2.0, 3.0]))
print(di.log_prob(torch.tensor([0.2, 0.3, 0.5])), di.mean, di.concentration)
n = D.Normal(1.0, 2.0)
print(n.cdf(torch.tensor(1.0)), n.icdf(torch.tensor(0.975)), n.log_prob(torch.tensor([0.0, 1.0])))
la = D.Laplace(0.0, 1.0)
print(la.log_prob(torch.tensor(1.5)), la.cdf(torch.tensor(-1.0)), la.entropy(), la.stddev)
un = D.Uniform(torch.tensor(0.0), torch.tensor(2.0))
print(un.log_prob(torch.tensor(1.0)), un.entropy(), un.cdf(torch.tensor(0.5)), un.support)
try:
    un.log_prob(torch.tensor(3.0))
except ValueError as e:
    print("ValueError", str(e)[:40])
try:
    D.Normal(0.0, -1.0)
except ValueError as e:
    print("ValueError", str(e)[:40])
print(D.kl_divergence(cat, D.Categorical(logits=torch.zeros(3))), D.kl_divergence(ga, D.Gamma(torch.tensor(1.0), torch.tensor(1.0))))
ln = D.LogNormal(0.0, 0.5)
print(ln.mean, ln.log_prob(torch.tensor(1.0)), D.Exponential(2.0).cdf(torch.tensor(1.0)), D.Geometric(probs=torch.tensor(0.25)).log_prob(torch.tensor(2.0)))
print(D.Bernoulli(logits=torch.tensor(0.0)).entropy(), D.Bernoulli(probs=torch.tensor([0.1, 0.9])).log_prob(torch.tensor([1.0, 1.0])))
