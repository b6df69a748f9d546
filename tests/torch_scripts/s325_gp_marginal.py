import math
import torch

X = torch.tensor([[0.0, 0.1], [0.5, -0.3], [1.0, 0.8], [1.5, 0.2], [2.0, -0.6], [2.5, 0.4]])
y = torch.sin(X[:, 0]) + 0.3 * X[:, 1]


def kernel(a, b, log_ls, log_sf):
    d = (a.unsqueeze(1) - b.unsqueeze(0)) / log_ls.exp()
    return (2 * log_sf).exp() * torch.exp(-0.5 * (d ** 2).sum(-1))


params = {"log_ls": torch.tensor([0.0, 0.5], requires_grad=True),
          "log_sf": torch.tensor(0.0, requires_grad=True),
          "log_sn": torch.tensor(-1.0, requires_grad=True)}


def nll():
    K = kernel(X, X, params["log_ls"], params["log_sf"])
    K = K + (2 * params["log_sn"]).exp() * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return 0.5 * (y.unsqueeze(0) @ alpha).squeeze() + torch.log(torch.diagonal(L)).sum() + 0.5 * len(X) * math.log(2 * math.pi)


opt = torch.optim.LBFGS(list(params.values()), lr=0.5, max_iter=10)


def closure():
    opt.zero_grad()
    l = nll()
    l.backward()
    return l


for i in range(3):
    l = opt.step(closure)
    print(i, f"{l.item():.5f}")
with torch.no_grad():
    K = kernel(X, X, params["log_ls"], params["log_sf"]) + (2 * params["log_sn"]).exp() * torch.eye(len(X))
    L, info = torch.linalg.cholesky_ex(K)
    print(info)
    Xs = torch.tensor([[0.75, 0.0], [3.0, 0.0]])
    Ks = kernel(Xs, X, params["log_ls"], params["log_sf"])
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    alpha = torch.linalg.solve_triangular(L.T, torch.linalg.solve_triangular(L, y.unsqueeze(1), upper=False), upper=True)
    mu = Ks @ alpha
    var = kernel(Xs, Xs, params["log_ls"], params["log_sf"]).diagonal() - (v ** 2).sum(0)
print([f"{m:.4f}" for m in mu.squeeze(1).tolist()], [f"{s:.4f}" for s in var.tolist()])
Kd = K.detach().clone().requires_grad_(True)
ld = torch.logdet(Kd)
ld.backward()
print(torch.allclose(Kd.grad, torch.linalg.inv(Kd).T), f"{ld.item():.5f}")
Linv = torch.linalg.solve_triangular(L, torch.eye(6), upper=False, left=True)
print(torch.allclose(Linv @ L, torch.eye(6)), torch.cholesky_inverse(L).shape)
