import torch

torch.set_printoptions(precision=4)
x = torch.linspace(0, 1, 12)
y = 1.5 - 2.0 * x + 0.2 * torch.sin(9 * x)
Phi = torch.stack([torch.ones_like(x), x, x ** 2], dim=1)
alpha, beta = 0.5, 25.0
S_inv = alpha * torch.eye(3) + beta * Phi.T @ Phi
S = torch.linalg.inv(S_inv)
m = beta * S @ Phi.T @ y
print(m, torch.allclose(S @ S_inv, torch.eye(3)))
L = torch.linalg.cholesky(S_inv)
m2 = torch.cholesky_solve((beta * Phi.T @ y).unsqueeze(1), L).squeeze(1)
print(torch.allclose(m, m2), torch.allclose(torch.cholesky_inverse(L), S))
xs = torch.tensor([-0.2, 0.5, 1.2])
Ps = torch.stack([torch.ones_like(xs), xs, xs ** 2], 1)
mean = Ps @ m
var = 1 / beta + (Ps @ S * Ps).sum(1)
print(mean, var.sqrt())
post = torch.distributions.MultivariateNormal(m, covariance_matrix=S)
print(post.mean, post.variance, round(post.entropy().item(), 4))
print(torch.allclose(post.precision_matrix, S_inv), post.scale_tril.shape)
lp = post.log_prob(torch.stack([m, m + 0.1]))
print(lp)
ml, res = torch.linalg.lstsq(Phi, y.unsqueeze(1))[:2]
print(ml.squeeze(1), res)
ridge = torch.linalg.solve(Phi.T @ Phi + (alpha / beta) * torch.eye(3), Phi.T @ y)
print(torch.allclose(ridge, m))
w_samples = post.mean + (post.scale_tril @ torch.tensor([[1.0, -1.0], [0.5, 0.0], [0.0, 2.0]])).T
print(w_samples.shape, (Ps @ w_samples.T).shape)
print(torch.distributions.Normal(mean, var.sqrt()).cdf(torch.tensor([1.6, 0.5, -1.0])))
