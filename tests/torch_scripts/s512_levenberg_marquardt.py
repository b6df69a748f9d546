import torch
from torch.autograd.functional import jacobian

t = torch.linspace(0, 4, 20)
y = 3.0 * torch.exp(-0.7 * t) * torch.cos(1.3 * t) + 0.01 * torch.sin(11 * t)


def residuals(p):
    A, k, w = p
    return A * torch.exp(-k * t) * torch.cos(w * t) - y


p = torch.tensor([2.0, 0.5, 1.1])
lam = 1e-2
for it in range(30):
    r = residuals(p)
    J = jacobian(residuals, p)
    JtJ = J.T @ J
    g = J.T @ r
    step = torch.linalg.solve(JtJ + lam * torch.diag(torch.diagonal(JtJ)), -g)
    new_p = p + step
    if (residuals(new_p) ** 2).sum() < (r ** 2).sum():
        p, lam = new_p, lam * 0.3
    else:
        lam = lam * 10
    if it % 10 == 0:
        print(it, round((r ** 2).sum().item(), 6), J.shape)
print(p.round(decimals=4), round((residuals(p) ** 2).sum().item(), 6))
J = jacobian(residuals, p)
cov = torch.linalg.inv(J.T @ J) * (residuals(p) ** 2).sum() / (len(t) - 3)
print(cov.diagonal().sqrt().round(decimals=5))
J2 = jacobian(residuals, p, vectorize=True)
print(torch.allclose(J, J2), J.dtype)
H = torch.autograd.functional.hessian(lambda q: 0.5 * (residuals(q) ** 2).sum(), p)
print(torch.allclose(H, H.T), (H - J.T @ J).abs().max().item() < 1.0)
