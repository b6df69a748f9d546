# Bayesian linear regression, conjugate Gaussian posterior and predictive, vs torch.linalg.lstsq
import torch

torch.set_printoptions(precision=4)
N, D = 20, 3
x = torch.linspace(-1, 1, N)
Phi = torch.stack([torch.ones(N), x, x ** 2], dim=1)
w_true = torch.tensor([0.5, -1.0, 2.0])
y = Phi @ w_true + 0.1 * torch.sin(11 * x)
alpha, beta = 1.0, 100.0
S_inv = alpha * torch.eye(D) + beta * Phi.T @ Phi
S = torch.linalg.inv(S_inv)
m = beta * S @ Phi.T @ y
print("posterior mean", m)
print("posterior std", torch.sqrt(torch.diag(S)))
w_ls = torch.linalg.lstsq(Phi, y.unsqueeze(-1)).solution.squeeze()
print("least squares", w_ls)
x_new = torch.tensor([0.0, 0.5, 1.5])
Phi_new = torch.stack([torch.ones(3), x_new, x_new ** 2], 1)
pred_mean = Phi_new @ m
pred_var = 1 / beta + (Phi_new @ S * Phi_new).sum(-1)
print(pred_mean, pred_var)
sign, logdet = torch.linalg.slogdet(S_inv)
evidence = (D / 2 * torch.log(torch.tensor(alpha)) + N / 2 * torch.log(torch.tensor(beta))
            - beta / 2 * (y - Phi @ m).pow(2).sum() - alpha / 2 * m @ m - 0.5 * logdet
            - N / 2 * torch.log(torch.tensor(2 * torch.pi)))
print(f"log evidence {evidence.item():.4f} sign {sign.item()}")
post = torch.distributions.MultivariateNormal(m, covariance_matrix=S)
print(post.mean.shape, post.stddev, round(post.entropy().item(), 4))
torch.set_printoptions(profile="default")
print(m)
