import math
import torch

X = torch.linspace(0, 4, 9).unsqueeze(1)
y = torch.sin(X).squeeze(1) + 0.05 * torch.cos(7 * X).squeeze(1)
log_ell = torch.tensor(0.0, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-2.0, requires_grad=True)

def kern(a, b):
    d2 = (a - b.T) ** 2
    return log_sf.exp() ** 2 * torch.exp(-0.5 * d2 / log_ell.exp() ** 2)

def nll():
    K = kern(X, X) + log_sn.exp() ** 2 * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return 0.5 * (y.unsqueeze(1) * alpha).sum() + L.diagonal().log().sum() + 0.5 * len(X) * math.log(2 * math.pi), L

val, L = nll()
print(round(val.item(), 8))
g = torch.autograd.grad(val, [log_ell, log_sf, log_sn])
print([round(v.item(), 6) for v in g])
sol, Lc = torch.triangular_solve(y.unsqueeze(1), L, upper=False)
print(sol.shape, torch.allclose(L @ sol, y.unsqueeze(1)), Lc.shape)
sol2 = torch.linalg.solve_triangular(L, y.unsqueeze(1), upper=False)
print(torch.allclose(sol, sol2))
solT = torch.triangular_solve(y.unsqueeze(1), L, upper=False, transpose=True).solution
print(torch.allclose(L.T @ solT, y.unsqueeze(1)))
Kinv = torch.cholesky_inverse(L)
print(torch.allclose(Kinv @ (L @ L.T), torch.eye(9), atol=1e-8))
opt = torch.optim.Adam([log_ell, log_sf, log_sn], lr=0.05)
for it in range(30):
    opt.zero_grad()
    v, _ = nll()
    v.backward()
    opt.step()
print(round(v.item(), 5), round(log_ell.exp().item(), 4), round(log_sn.exp().item(), 4))
with torch.no_grad():
    _, L = nll()
    Xs = torch.tensor([[0.5], [2.5]])
    Ks = kern(Xs, X)
    mean = Ks @ torch.cholesky_solve(y.unsqueeze(1), L)
    v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
    var = kern(Xs, Xs).diagonal() - (v ** 2).sum(0)
print(mean.squeeze().round(decimals=4), var.round(decimals=5))
