import math
import torch


def rbf(x1, x2, lengthscale, variance):
    d2 = (x1.unsqueeze(1) - x2.unsqueeze(0)).pow(2).sum(-1)
    return variance * torch.exp(-0.5 * d2 / lengthscale ** 2)


X = torch.linspace(0, 5, 12).unsqueeze(1)
y = torch.sin(X).squeeze() + 0.05 * torch.cos(7 * X).squeeze()
log_ls = torch.tensor(0.0, requires_grad=True)
log_var = torch.tensor(0.0, requires_grad=True)
log_noise = torch.tensor(-2.0, requires_grad=True)


def nll():
    K = rbf(X, X, log_ls.exp(), log_var.exp()) + (log_noise.exp() + 1e-6) * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return 0.5 * (y.unsqueeze(0) @ alpha).squeeze() + torch.log(torch.diagonal(L)).sum() + 0.5 * len(X) * math.log(2 * math.pi)


print(round(nll().item(), 8))
opt = torch.optim.Adam([log_ls, log_var, log_noise], lr=0.05)
for i in range(40):
    opt.zero_grad()
    loss = nll()
    loss.backward()
    opt.step()
    if i % 10 == 9:
        print(i, round(loss.item(), 6))
print([round(v.exp().item(), 4) for v in (log_ls, log_var, log_noise)])
with torch.no_grad():
    Xs = torch.tensor([[1.0], [2.5], [4.0]])
    K = rbf(X, X, log_ls.exp(), log_var.exp()) + log_noise.exp() * torch.eye(len(X))
    Ks = rbf(Xs, X, log_ls.exp(), log_var.exp())
    L = torch.linalg.cholesky(K)
    mean = Ks @ torch.cholesky_solve(y.unsqueeze(1), L)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = log_var.exp() - (v ** 2).sum(0)
print(mean.squeeze().numpy().round(3), (var > 0).all().item(), torch.sin(Xs).squeeze().numpy().round(3))
print(torch.allclose(torch.cholesky_inverse(L), torch.linalg.inv(K), atol=1e-8))
mvn = torch.distributions.MultivariateNormal(torch.zeros(len(X)), scale_tril=L)
print(round(mvn.log_prob(y).item(), 6))
