# TransformedDistribution with Affine/Exp/Sigmoid transforms: log_prob values, sample shapes, rsample grads exist
import torch
import torch.distributions as D
from torch.distributions import transforms as T

base = D.Normal(torch.tensor(0.0), torch.tensor(1.0))
ln = D.TransformedDistribution(base, [T.AffineTransform(loc=1.0, scale=2.0), T.ExpTransform()])
print(ln.log_prob(torch.tensor([0.5, 1.0, 3.0])).round(decimals=5))
print(D.LogNormal(1.0, 2.0).log_prob(torch.tensor([0.5, 1.0, 3.0])).round(decimals=5))
lg = D.TransformedDistribution(base, [T.SigmoidTransform()])
print(lg.log_prob(torch.tensor(0.25)).round(decimals=5))
print(ln.sample((3, 2)).shape, ln.batch_shape, ln.event_shape)
mvn = D.MultivariateNormal(torch.zeros(3), torch.eye(3))
print(mvn.sample((4,)).shape, mvn.rsample(torch.Size([2, 5])).shape)
mu = torch.tensor([0.5], requires_grad=True)
s = D.Normal(mu, 1.0).rsample((10,))
print(s.shape, s.requires_grad)
t = T.ComposeTransform([T.AffineTransform(0.0, 3.0), T.TanhTransform()])
x = torch.tensor([0.1, -0.2])
print(t(x).round(decimals=5), t.inv(t(x)).round(decimals=5), t.log_abs_det_jacobian(x, t(x)).round(decimals=4))
print(D.constraints.positive.check(torch.tensor([1.0, -1.0])), D.constraints.simplex.check(torch.tensor([0.3, 0.7])))
print(T.SoftmaxTransform()(torch.tensor([0.0, 0.0])), T.StickBreakingTransform()(torch.tensor([0.0])))
print(D.Categorical(probs=torch.ones(2, 3) / 3).sample((4,)).shape, D.Dirichlet(torch.ones(3)).sample().shape)
print(D.biject_to(D.constraints.positive)(torch.tensor([0.0, 1.0])))
