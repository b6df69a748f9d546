# Rarer distribution families with fixed values: Weibull, Gumbel, VonMises, Kumaraswamy, ContinuousBernoulli, Chi2, FisherSnedecor, Pareto, HalfCauchy
import torch
import torch.distributions as D

x = torch.tensor([0.5, 1.5])
print(D.Weibull(torch.tensor(2.0), torch.tensor(1.5)).log_prob(x), D.Weibull(2.0, 1.5).mean, D.Weibull(2.0, 1.5).entropy())
print(D.Gumbel(1.0, 2.0).log_prob(x), D.Gumbel(1.0, 2.0).mean, D.Gumbel(1.0, 2.0).variance)
print(D.VonMises(torch.tensor(0.5), torch.tensor(2.0)).log_prob(x), D.VonMises(0.5, 2.0).variance)
print(D.Kumaraswamy(torch.tensor(2.0), torch.tensor(3.0)).log_prob(torch.tensor([0.2, 0.7])), D.Kumaraswamy(2.0, 3.0).mean)
cb = D.ContinuousBernoulli(probs=torch.tensor([0.2, 0.5, 0.9]))
print(cb.log_prob(torch.tensor([0.3, 0.3, 0.3])), cb.mean, cb.entropy())
print(D.Chi2(torch.tensor(3.0)).log_prob(x), D.FisherSnedecor(3.0, 5.0).log_prob(x), D.FisherSnedecor(3.0, 5.0).mean)
print(D.Pareto(1.0, 3.0).log_prob(torch.tensor([1.5, 2.0])), D.Pareto(1.0, 3.0).mean, D.Pareto(1.0, 3.0).entropy())
print(D.HalfCauchy(2.0).log_prob(x), D.HalfCauchy(2.0).cdf(x), D.LogisticNormal(torch.zeros(2), torch.ones(2)).log_prob(torch.tensor([0.2, 0.3, 0.5])))
print(D.Multinomial(6, probs=torch.tensor([0.2, 0.3, 0.5])).log_prob(torch.tensor([1.0, 2.0, 3.0])))
print(D.RelaxedBernoulli(torch.tensor(0.5), probs=torch.tensor([0.3])).log_prob(torch.tensor([0.4])))
print(D.RelaxedOneHotCategorical(torch.tensor(1.0), probs=torch.tensor([0.2, 0.8])).log_prob(torch.tensor([0.3, 0.7])))
