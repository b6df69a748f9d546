import torch
import torch.distributions as D

mix = D.Categorical(torch.tensor([0.3, 0.7]))
comp = D.Normal(torch.tensor([-1.0, 2.0]), torch.tensor([0.5, 1.5]))
gmm = D.MixtureSameFamily(mix, comp)
x = torch.tensor([-1.0, 0.0, 2.5])
print(gmm.log_prob(x).round(decimals=5))
print(gmm.mean, gmm.variance.round(decimals=5))
print(gmm.batch_shape, gmm.event_shape)
print(gmm.cdf(x).round(decimals=5))
base = D.Normal(torch.tensor(0.0), torch.tensor(1.0))
logn = D.TransformedDistribution(base, [D.transforms.ExpTransform()])
print(logn.log_prob(torch.tensor([0.5, 1.0, 2.0])).round(decimals=5))
aff = D.TransformedDistribution(base, [D.transforms.AffineTransform(1.0, 2.0),
                                       D.transforms.SigmoidTransform()])
print(aff.log_prob(torch.tensor([0.2, 0.7])).round(decimals=5))
loc = torch.tensor([0.5], requires_grad=True)
nd = D.Normal(loc, 1.0)
nd.log_prob(torch.tensor([1.5])).sum().backward()
print(loc.grad)
print(D.kl_divergence(D.Normal(0.0, 1.0), D.Normal(1.0, 2.0)).round(decimals=5))
