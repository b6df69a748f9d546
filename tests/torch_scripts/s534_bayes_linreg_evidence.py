import math
import torch

x = torch.linspace(-1, 1, 20)
y = 0.5 - 1.2 * x + 0.8 * x ** 3 + 0.05 * torch.cos(13 * x)
Phi = torch.stack([x ** k for k in range(4)], 1)
log_alpha = torch.tensor(0.0, requires_grad=True)
log_beta = torch.tensor(2.0, requires_grad=True)


def evidence(log_alpha, log_beta):
    alpha, beta = log_alpha.exp(), log_beta.exp()
    N, M = Phi.shape
    A = alpha * torch.eye(M) + beta * Phi.T @ Phi
    L = torch.linalg.cholesky(A)
    m = beta * torch.cholesky_solve((Phi.T @ y).unsqueeze(1), L).squeeze(1)
    E = beta / 2 * ((y - Phi @ m) ** 2).sum() + alpha / 2 * (m @ m)
    logdetA = 2 * torch.log(torch.diagonal(L)).sum()
    return (M / 2 * log_alpha + N / 2 * log_beta - E - logdetA / 2 - N / 2 * math.log(2 * math.pi)), m, A


opt = torch.optim.Adam([log_alpha, log_beta], lr=0.1)
for it in range(150):
    opt.zero_grad()
    ev, m, A = evidence(log_alpha, log_beta)
    (-ev).backward()
    opt.step()
print(round(ev.item(), 4), round(log_alpha.item(), 3), round(log_beta.item(), 3))
print(m.detach().round(decimals=3))
S = torch.linalg.inv(A.detach())
xs = torch.tensor([0.0, 0.5])
Ps = torch.stack([xs ** k for k in range(4)], 1)
var = 1 / log_beta.exp().detach() + (Ps @ S * Ps).sum(1)
print((Ps @ m.detach()).round(decimals=4), var.sqrt().round(decimals=4))
ld1 = torch.logdet(A.detach())
ld2 = torch.linalg.slogdet(A.detach())
print(torch.allclose(ld1, ld2.logabsdet), ld2.sign)
