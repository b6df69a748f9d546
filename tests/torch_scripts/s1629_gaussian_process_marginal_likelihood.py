# GP regression: RBF kernel, Cholesky marginal likelihood and its hyperparameter gradients
import torch

X = torch.tensor([[0.0], [0.5], [1.0], [1.5], [2.5]])
y = torch.sin(3 * X).squeeze(1)
log_ell = torch.tensor(-0.5, requires_grad=True)
log_sf = torch.tensor(0.0, requires_grad=True)
log_sn = torch.tensor(-2.0, requires_grad=True)
d2 = torch.cdist(X, X) ** 2
K = log_sf.exp() ** 2 * torch.exp(-0.5 * d2 / log_ell.exp() ** 2) + log_sn.exp() ** 2 * torch.eye(5)
L = torch.linalg.cholesky(K)
alpha = torch.cholesky_solve(y.unsqueeze(1), L)
nll = 0.5 * (y.unsqueeze(1) * alpha).sum() + L.diagonal().log().sum() + 2.5 * torch.log(torch.tensor(2 * torch.pi))
nll.backward()
print(round(nll.item(), 8))
print(log_ell.grad, log_sf.grad, log_sn.grad)
Xs = torch.tensor([[0.75], [2.0]])
Ks = log_sf.exp().detach() ** 2 * torch.exp(-0.5 * torch.cdist(Xs, X) ** 2 / log_ell.exp().detach() ** 2)
print((Ks @ alpha.detach()).squeeze(1))
