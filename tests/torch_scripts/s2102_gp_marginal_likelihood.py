import math
import torch

X = torch.linspace(0, 5, 12).unsqueeze(1)
y = torch.sin(X).squeeze() + 0.1 * torch.cos(3 * X).squeeze()

log_ell = torch.tensor(0.0, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-2.0, requires_grad=True)

def nll():
    d2 = (X - X.T) ** 2
    K = log_sf.exp() ** 2 * torch.exp(-0.5 * d2 / log_ell.exp() ** 2)
    K = K + (log_sn.exp() ** 2 + 1e-6) * torch.eye(len(X))
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return (0.5 * (y.unsqueeze(1) * alpha).sum()
            + torch.log(torch.diagonal(L)).sum()
            + 0.5 * len(X) * math.log(2 * math.pi))

opt = torch.optim.Adam([log_ell, log_sf, log_sn], lr=0.1)
for step in range(10):
    opt.zero_grad()
    loss = nll()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, round(loss.item(), 5))
print([round(p.exp().item(), 4) for p in (log_ell, log_sf, log_sn)])
g = torch.autograd.grad(nll(), [log_ell, log_sf, log_sn])
print(torch.stack(g).round(decimals=4))
