import torch

def rbf(a, b, ell=0.6):
    return torch.exp(-0.5 * torch.cdist(a, b) ** 2 / ell ** 2)

Xtr = torch.tensor([[-1.5], [-0.5], [0.3], [1.2], [2.0]])
ytr = torch.sin(2 * Xtr).squeeze(-1)
Xte = torch.linspace(-2, 2.5, 6).unsqueeze(-1)
noise = 1e-2
K = rbf(Xtr, Xtr) + noise * torch.eye(5)
L = torch.linalg.cholesky(K)
Ks = rbf(Xtr, Xte)
alpha = torch.cholesky_solve(ytr.unsqueeze(-1), L)
mean = (Ks.T @ alpha).squeeze(-1)
v = torch.linalg.solve_triangular(L, Ks, upper=False)
var = 1.0 - (v ** 2).sum(0)
print(mean.round(decimals=4))
print(var.clamp(min=0).round(decimals=4))
print(torch.allclose(L @ L.T, K), torch.linalg.cholesky_ex(K).info)
xq = torch.tensor([[0.5]], requires_grad=True)
mq = (rbf(Xtr, xq).T @ alpha).squeeze()
mq.backward()
print(round(mq.item(), 5), xq.grad.round(decimals=5))
logdet = 2 * torch.log(torch.diagonal(L)).sum()
print(torch.allclose(logdet, torch.logdet(K)), round(logdet.item(), 4))
sign, ld = torch.linalg.slogdet(K)
print(sign, ld.round(decimals=4))
