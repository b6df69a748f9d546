# MultivariateNormal / Wishart parameters derived lazily: printing before and after reading the
# covariance / precision / scale_tril, and expand keeping them
import torch
from torch.distributions import MultivariateNormal, Wishart

cov = torch.tensor([[2.0, 0.3], [0.3, 1.0]])
m = MultivariateNormal(torch.zeros(2), covariance_matrix=cov)
print(m)
print(m.scale_tril)
print(m)
print(m.precision_matrix)
print(m)
e = m.expand((3,))
print(e, e.scale_tril.shape)
p = MultivariateNormal(torch.ones(2), precision_matrix=torch.eye(2) * 4)
print(p, p.covariance_matrix, p)
w = Wishart(torch.tensor(4.0), scale_tril=torch.eye(2))
print(w)
print(w.covariance_matrix, w)
w2 = Wishart(torch.tensor([3.0, 5.0]), covariance_matrix=cov)
print(w2, w2.precision_matrix.shape, w2)
