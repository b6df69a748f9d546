import torch

X = torch.stack([torch.linspace(-1, 1, 15) ** k for k in range(5)], dim=1)
y = torch.sin(2.5 * torch.linspace(-1, 1, 15))
Xv = torch.stack([torch.linspace(-0.95, 0.95, 8) ** k for k in range(5)], dim=1)
yv = torch.sin(2.5 * torch.linspace(-0.95, 0.95, 8))
log_lam = torch.tensor(-2.0, requires_grad=True)


def ridge(log_lam):
    lam = log_lam.exp()
    A = X.T @ X + lam * torch.eye(5)
    return torch.linalg.solve(A, X.T @ y)


# hypergradient by differentiating through the solve
w = ridge(log_lam)
val = ((Xv @ w - yv) ** 2).mean()
val.backward()
print(round(val.item(), 8), round(log_lam.grad.item(), 8))
# implicit function theorem by hand: dw/dlam = -A^{-1} w
with torch.no_grad():
    lam = log_lam.exp()
    A = X.T @ X + lam * torch.eye(5)
    dval_dw = 2 * Xv.T @ (Xv @ w - yv) / len(yv)
    dw_dlam = -torch.linalg.solve(A, w)
    hg = (dval_dw @ dw_dlam) * lam
print(torch.allclose(hg, log_lam.grad))
# tune lambda by gradient descent on the validation loss
opt = torch.optim.Adam([log_lam], lr=0.2)
for i in range(40):
    opt.zero_grad()
    v = ((Xv @ ridge(log_lam) - yv) ** 2).mean()
    v.backward()
    opt.step()
print(round(v.item(), 8), round(log_lam.item(), 3))
L = torch.linalg.cholesky(X.T @ X + torch.eye(5))
w2 = torch.cholesky_solve((X.T @ y).unsqueeze(1), L).squeeze(1)
print(torch.allclose(w2, ridge(torch.tensor(0.0))), torch.linalg.lstsq(X, y.unsqueeze(1)).solution.shape)
