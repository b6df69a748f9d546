import math
import torch

X = torch.linspace(0, 5, 12).unsqueeze(-1)
y = torch.sin(X).squeeze() + 0.1 * torch.cos(3 * X).squeeze()
log_ls = torch.tensor(0.0, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-2.0, requires_grad=True)


def kernel(a, b, ls, sf):
    d2 = torch.cdist(a / ls, b / ls).pow(2)
    return sf ** 2 * torch.exp(-0.5 * d2)


def nll():
    ls, sf, sn = log_ls.exp(), log_sf.exp(), log_sn.exp()
    K = kernel(X, X, ls, sf) + (sn ** 2 + 1e-6) * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), L)
    return (0.5 * (y.unsqueeze(-1) * alpha).sum() + torch.log(torch.diagonal(L)).sum()
            + 0.5 * len(X) * math.log(2 * math.pi))


opt = torch.optim.LBFGS([log_ls, log_sf, log_sn], lr=1, max_iter=50, line_search_fn="strong_wolfe")


def closure():
    opt.zero_grad()
    loss = nll()
    loss.backward()
    return loss


start = nll().item()
opt.step(closure)
end = nll().item()
print(round(start, 4), end < start, round(end, 3))
print(round(log_ls.exp().item(), 2), round(log_sf.exp().item(), 2))
state = opt.state[opt._params[0]]
print(sorted(state.keys()))
with torch.no_grad():
    ls, sf, sn = log_ls.exp(), log_sf.exp(), log_sn.exp()
    K = kernel(X, X, ls, sf) + sn ** 2 * torch.eye(len(X))
    Xs = torch.tensor([[2.5], [6.0]])
    Ks = kernel(Xs, X, ls, sf)
    L = torch.linalg.cholesky(K)
    mean = Ks @ torch.cholesky_solve(y.unsqueeze(-1), L)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = kernel(Xs, Xs, ls, sf).diagonal() - v.pow(2).sum(0)
    print(mean.squeeze().round(decimals=2), (var > 0).tolist(), torch.logdet(K).round(decimals=1))
