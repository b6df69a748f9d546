# TransformedDistribution: Normal pushed through Exp and Affine equals LogNormal
import torch
from torch.distributions import Normal, LogNormal, TransformedDistribution
from torch.distributions.transforms import ExpTransform, AffineTransform, SigmoidTransform, ComposeTransform

base = Normal(torch.tensor(0.3), torch.tensor(0.8))
td = TransformedDistribution(base, [ExpTransform()])
ln = LogNormal(0.3, 0.8)
x = torch.tensor([0.5, 1.0, 2.5])
print(td.log_prob(x))
print(ln.log_prob(x))
aff = TransformedDistribution(base, [AffineTransform(loc=1.0, scale=2.0), SigmoidTransform()])
print(aff.log_prob(torch.tensor([0.2, 0.7])))
t = ComposeTransform([AffineTransform(0.0, 3.0), ExpTransform()])
y = t(torch.tensor([0.0, 0.5]))
print(y, t.inv(y), t.log_abs_det_jacobian(torch.tensor([0.0, 0.5]), y))
print(ln.mean, ln.variance, ln.entropy())
print(td.rsample((2, 3)).shape)
