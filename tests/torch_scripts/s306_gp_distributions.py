import torch
from torch.distributions import MultivariateNormal, Normal, LowRankMultivariateNormal

X = torch.linspace(-2, 2, 7).unsqueeze(-1)
Y = torch.sin(2 * X).squeeze(-1)
Xs = torch.tensor([[-1.5], [0.25], [1.0]])


def rbf(a, b, ls, var):
    return var * torch.exp(-0.5 * torch.cdist(a, b).pow(2) / ls ** 2)


raw = torch.tensor([0.0, 0.0, -2.0], requires_grad=True)
opt = torch.optim.Adam([raw], lr=0.1)
for it in range(30):
    opt.zero_grad()
    ls, var, noise = torch.nn.functional.softplus(raw)
    K = rbf(X, X, ls, var) + (noise + 1e-6) * torch.eye(len(X))
    mll = MultivariateNormal(torch.zeros(len(X)), covariance_matrix=K).log_prob(Y)
    (-mll).backward()
    opt.step()
    if it % 10 == 0:
        print(it, round(-mll.item(), 5))
with torch.no_grad():
    ls, var, noise = torch.nn.functional.softplus(raw)
    K = rbf(X, X, ls, var) + noise * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    Ks = rbf(Xs, X, ls, var)
    alpha = torch.cholesky_solve(Y.unsqueeze(-1), L)
    mean = (Ks @ alpha).squeeze(-1)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    cov = rbf(Xs, Xs, ls, var) - v.T @ v
print([round(m, 3) for m in mean.tolist()], [round(s, 3) for s in cov.diagonal().clamp_min(0).sqrt().tolist()])
pred = MultivariateNormal(mean, cov + 1e-6 * torch.eye(3))
print(pred.batch_shape, pred.event_shape, pred.sample((5,)).shape, pred.rsample().shape)
print(round(pred.log_prob(mean).item(), 3))
lr = LowRankMultivariateNormal(torch.zeros(3), torch.ones(3, 1), torch.ones(3))
print(lr.covariance_matrix, round(lr.log_prob(torch.zeros(3)).item(), 6))
print(torch.allclose(lr.log_prob(torch.ones(3)), MultivariateNormal(torch.zeros(3), lr.covariance_matrix).log_prob(torch.ones(3))))
b = MultivariateNormal(torch.zeros(2, 3), torch.eye(3).expand(2, 3, 3))
print(b.batch_shape, b.log_prob(torch.zeros(3)).shape, b.mean.shape, b.variance[0])
try:
    MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except ValueError as e:
    print("ValueError:", str(e)[:100])
