# Gaussian mixture via MixtureSameFamily: log_prob, mean, variance and their gradients
import torch
import torch.distributions as D

logits = torch.tensor([0.2, -0.3, 1.0], requires_grad=True)
locs = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
scales = torch.tensor([0.5, 1.0, 0.8], requires_grad=True)
mix = D.Categorical(logits=logits)
comp = D.Normal(locs, scales)
gmm = D.MixtureSameFamily(mix, comp)
print(gmm.batch_shape, gmm.event_shape)
x = torch.tensor([-1.0, 0.0, 1.5, 3.0])
lp = gmm.log_prob(x)
print(lp)
lp.sum().backward()
print(logits.grad, locs.grad, scales.grad)
print(gmm.mean, gmm.variance)
print(gmm.cdf(torch.tensor([0.0, 1.0])))
comp2 = D.Independent(D.Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)
gmm2 = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])), comp2)
print(gmm2.batch_shape, gmm2.event_shape, gmm2.log_prob(torch.zeros(3)))
print(gmm.sample((5,)).shape, gmm2.sample((4,)).shape)
