import torch

Z = torch.linspace(-2, 2, 4).unsqueeze(-1)
X = torch.linspace(-3, 3, 10).unsqueeze(-1)
y = torch.sin(2 * X).squeeze()
log_ls = torch.tensor(-0.3, requires_grad=True)
log_noise = torch.tensor(-1.5, requires_grad=True)


def k(a, b):
    return torch.exp(-0.5 * (a - b.T) ** 2 / log_ls.exp() ** 2)


def dtc_nll():
    Kuu = k(Z, Z) + 1e-6 * torch.eye(4)
    Kuf = k(Z, X)
    Luu = torch.linalg.cholesky(Kuu)
    V = torch.linalg.solve_triangular(Luu, Kuf, upper=False)
    s2 = log_noise.exp() ** 2
    cov = V.T @ V + s2 * torch.eye(10)
    Lc, info = torch.linalg.cholesky_ex(cov)
    alpha = torch.cholesky_solve(y.unsqueeze(-1), Lc)
    return 0.5 * (y @ alpha.squeeze()) + Lc.diagonal().log().sum(), info


nll, info = dtc_nll()
nll.backward()
print(round(nll.item(), 5), info, round(log_ls.grad.item(), 5), round(log_noise.grad.item(), 5))
opt = torch.optim.Adam([log_ls, log_noise], lr=0.05)
for _ in range(25):
    opt.zero_grad()
    loss, _ = dtc_nll()
    loss.backward()
    opt.step()
print(round(loss.item(), 4), round(log_ls.item(), 4), round(log_noise.item(), 4))
bad = torch.tensor([[1.0, 2.0], [2.0, 1.0]])
L, info = torch.linalg.cholesky_ex(bad)
print(info)
try:
    torch.linalg.cholesky(bad)
except torch.linalg.LinAlgError as e:
    print("LinAlgError:", e)
print(torch.cholesky_inverse(torch.linalg.cholesky(torch.tensor([[4.0, 2.0], [2.0, 3.0]]))))
print(torch.linalg.cholesky(torch.tensor([[4.0, 2.0], [2.0, 3.0]]), upper=True))
