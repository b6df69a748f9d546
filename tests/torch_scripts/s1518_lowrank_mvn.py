# LowRankMultivariateNormal: covariance = W W^T + diag(D); compare with the full MVN
import torch
from torch.distributions import LowRankMultivariateNormal, MultivariateNormal

loc = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
W = torch.tensor([[1.0], [0.5], [-0.3]], requires_grad=True)
D = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
lr = LowRankMultivariateNormal(loc, W, D)
print(lr.covariance_matrix)
full = MultivariateNormal(loc, lr.covariance_matrix)
x = torch.tensor([[0.2, 0.3, -0.5], [1.0, 1.0, 1.0]])
lp = lr.log_prob(x)
print(lp, torch.allclose(lp, full.log_prob(x)))
lp.sum().backward()
print(loc.grad, W.grad, D.grad)
print(lr.entropy(), lr.variance)
print(lr.precision_matrix)
print(lr.batch_shape, lr.event_shape, lr.rsample((2,)).shape)
