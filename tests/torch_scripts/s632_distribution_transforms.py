import torch
from torch.distributions import Normal, TransformedDistribution, Independent, constraints
from torch.distributions.transforms import ExpTransform, AffineTransform, SigmoidTransform, ComposeTransform, TanhTransform

base = Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5]))
lognormal = TransformedDistribution(base, [ExpTransform()])
x = torch.tensor([0.5, 2.0])
print(lognormal.log_prob(x))
print(torch.distributions.LogNormal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.5])).log_prob(x))
affine = TransformedDistribution(base, [AffineTransform(loc=2.0, scale=3.0), SigmoidTransform()])
print(affine.log_prob(torch.tensor([0.9, 0.99])))
t = ComposeTransform([AffineTransform(1.0, 2.0), TanhTransform()])
y = t(torch.tensor([0.1, -0.2]))
print(y, t.inv(y), t.log_abs_det_jacobian(torch.tensor([0.1, -0.2]), y))
ind = Independent(base, 1)
print(ind.batch_shape, ind.event_shape, ind.log_prob(x))
print(constraints.positive.check(torch.tensor([1.0, -1.0, 0.0])))
print(constraints.interval(0.0, 1.0).check(torch.tensor([0.5, 1.5])))
print(constraints.simplex.check(torch.tensor([0.2, 0.8])))
print(base.support, lognormal.support)
