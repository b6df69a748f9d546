# Wishart distribution: log_prob, mean, variance and a gradient through the scale
import torch
from torch.distributions import Wishart

S = torch.tensor([[2.0, 0.3], [0.3, 1.0]], requires_grad=True)
W = Wishart(df=torch.tensor(4.0), covariance_matrix=S)
X = torch.tensor([[3.0, 0.5], [0.5, 2.0]])
lp = W.log_prob(X)
print(lp)
lp.backward()
print(S.grad)
print(W.mean)
print(W.variance)
print(W.batch_shape, W.event_shape)
print(W.sample().shape, W.sample((3,)).shape)
W2 = Wishart(df=torch.tensor([3.0, 5.0]), scale_tril=torch.eye(2).expand(2, 2, 2))
print(W2.log_prob(torch.eye(2)))
print(W2.entropy())
