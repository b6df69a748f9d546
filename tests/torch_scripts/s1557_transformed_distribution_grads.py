# TransformedDistribution: log-normal by hand, affine and sigmoid transforms, log_det_jacobian
import torch
from torch.distributions import Normal, TransformedDistribution, LogNormal
from torch.distributions.transforms import ExpTransform, AffineTransform, SigmoidTransform

loc = torch.tensor(0.5, requires_grad=True)
scale = torch.tensor(1.5, requires_grad=True)
base = Normal(loc, scale)
ln = TransformedDistribution(base, [ExpTransform()])
x = torch.tensor([0.5, 1.0, 4.0])
lp = ln.log_prob(x)
print(lp, torch.allclose(lp, LogNormal(loc, scale).log_prob(x)))
lp.sum().backward()
print(loc.grad, scale.grad)
aff = TransformedDistribution(Normal(0.0, 1.0), [AffineTransform(loc=2.0, scale=3.0)])
print(aff.log_prob(torch.tensor([2.0, 5.0])))
sig = TransformedDistribution(Normal(torch.tensor(0.0), torch.tensor(1.0)), SigmoidTransform())
print(sig.log_prob(torch.tensor([0.25, 0.5, 0.9])))
t = AffineTransform(1.0, 2.0)
v = torch.tensor([0.0, 1.0])
print(t(v), t.inv(t(v)), t.log_abs_det_jacobian(v, t(v)))
comp = ExpTransform() * 1 if False else SigmoidTransform().inv
print(comp(torch.tensor([0.5])), type(comp).__name__)
print(ln.support, ln.batch_shape, ln.event_shape, ln.rsample((3,)).shape)
