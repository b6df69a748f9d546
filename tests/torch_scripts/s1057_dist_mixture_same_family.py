# Gaussian mixture with MixtureSameFamily: log_prob, mean, variance, gradient wrt logits
import torch
import torch.distributions as D

logits = torch.tensor([0.2, -0.3, 1.0], requires_grad=True)
mix = D.Categorical(logits=logits)
comp = D.Normal(torch.tensor([-1.0, 0.0, 2.0]), torch.tensor([0.5, 1.0, 1.5]))
gmm = D.MixtureSameFamily(mix, comp)
x = torch.linspace(-2, 3, 6)
lp = gmm.log_prob(x)
print(lp)
print(gmm.mean, gmm.variance)
lp.sum().backward()
print(logits.grad)
print(gmm.sample((4,)).shape, gmm.batch_shape, gmm.event_shape)
comp2 = D.Independent(D.Normal(torch.zeros(3, 2), torch.ones(3, 2)), 1)
gmm2 = D.MixtureSameFamily(D.Categorical(probs=torch.ones(3) / 3), comp2)
print(gmm2.log_prob(torch.tensor([[0.0, 0.0], [1.0, -1.0]])))
print(mix.probs, mix.entropy())
