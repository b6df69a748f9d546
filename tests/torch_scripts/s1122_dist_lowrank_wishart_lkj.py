# LowRankMultivariateNormal, Wishart, LKJCholesky log_probs with fixed inputs
import torch
import torch.distributions as D

lr = D.LowRankMultivariateNormal(torch.zeros(3), cov_factor=torch.tensor([[1.0], [0.5], [0.0]]), cov_diag=torch.ones(3))
print(lr.log_prob(torch.tensor([0.5, -0.5, 1.0])), lr.covariance_matrix, lr.entropy())
mvn = D.MultivariateNormal(torch.zeros(3), lr.covariance_matrix)
print(mvn.log_prob(torch.tensor([0.5, -0.5, 1.0])), D.kl_divergence(lr, mvn))
w = D.Wishart(df=torch.tensor(4.0), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]]))
print(w.log_prob(torch.tensor([[3.0, 1.0], [1.0, 2.0]])), w.mean, w.variance)
lkj = D.LKJCholesky(3, concentration=2.0)
L = torch.linalg.cholesky(torch.tensor([[1.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 1.0]]))
print(lkj.log_prob(L), lkj.sample().shape)
print(D.MultivariateNormal(torch.zeros(2), precision_matrix=torch.tensor([[2.0, 0.3], [0.3, 1.0]])).scale_tril)
