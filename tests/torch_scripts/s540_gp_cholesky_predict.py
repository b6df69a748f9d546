import math
import torch


def rbf(a, b, ls, var):
    d2 = (a.unsqueeze(-1) - b.unsqueeze(-2)) ** 2
    return var * torch.exp(-0.5 * d2 / ls ** 2)


X = torch.linspace(-3, 3, 15)
y = torch.sin(X) + 0.1 * torch.cos(5 * X)
Xs = torch.linspace(-3.5, 3.5, 6)
log_ls = torch.tensor(0.0, requires_grad=True)
log_var = torch.tensor(0.0, requires_grad=True)
log_noise = torch.tensor(-2.0, requires_grad=True)
opt = torch.optim.LBFGS([log_ls, log_var, log_noise], lr=0.5, max_iter=40, line_search_fn="strong_wolfe")


def nll():
    K = rbf(X, X, log_ls.exp(), log_var.exp()) + log_noise.exp() * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
    return 0.5 * (y @ alpha.squeeze(-1)) + L.diagonal().log().sum() + 0.5 * len(X) * math.log(2 * math.pi)


def closure():
    opt.zero_grad()
    loss = nll()
    loss.backward()
    return loss


print(f"start {nll().item():.4f}")
opt.step(closure)
print(f"end {nll().item():.4f}", [round(p.exp().item(), 3) for p in (log_ls, log_var, log_noise)])
with torch.no_grad():
    K = rbf(X, X, log_ls.exp(), log_var.exp()) + log_noise.exp() * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    Ks = rbf(Xs, X, log_ls.exp(), log_var.exp())
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    a = torch.linalg.solve_triangular(L.T, torch.linalg.solve_triangular(L, y.unsqueeze(1), upper=False), upper=True)
    mean = (Ks @ a).squeeze(1)
    var = log_var.exp() - (v * v).sum(0)
    print(mean.round(decimals=3))
    print(var.clamp_min(0).sqrt().round(decimals=3))
    sign, logabs = torch.linalg.slogdet(K)
    print(sign.item(), round(logabs.item(), 4), round(torch.logdet(K).item(), 4),
          round(2 * L.diagonal().log().sum().item(), 4))
    mvn = torch.distributions.MultivariateNormal(torch.zeros(len(X)), scale_tril=L)
    print(round(-mvn.log_prob(y).item(), 4), mvn.event_shape, mvn.batch_shape)
