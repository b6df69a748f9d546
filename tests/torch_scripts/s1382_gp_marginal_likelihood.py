# Gaussian-process regression: log marginal likelihood, gradient w.r.t. hyperparameters
import math
import torch

X = torch.tensor([[-2.0], [-1.0], [0.0], [0.5], [1.5]])
y = torch.sin(X).squeeze(1)
log_ell = torch.tensor(0.0, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-2.0, requires_grad=True)

def nll():
    ell, sf2, sn2 = log_ell.exp(), (2 * log_sf).exp(), (2 * log_sn).exp()
    d2 = torch.cdist(X, X) ** 2
    K = sf2 * torch.exp(-0.5 * d2 / ell ** 2) + sn2 * torch.eye(5)
    L = torch.linalg.cholesky(K)
    alpha = torch.cholesky_solve(y.unsqueeze(1), L)
    return 0.5 * (y.unsqueeze(1) * alpha).sum() + L.diagonal().log().sum() + 2.5 * math.log(2 * math.pi)

opt = torch.optim.Adam([log_ell, log_sf, log_sn], lr=0.05)
for i in range(30):
    opt.zero_grad()
    loss = nll()
    loss.backward()
    if i % 10 == 0:
        print(i, round(loss.item(), 8), round(log_ell.grad.item(), 8), round(log_sn.grad.item(), 8))
    opt.step()
print(round(log_ell.item(), 8), round(log_sf.item(), 8), round(log_sn.item(), 8))
