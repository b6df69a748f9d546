import torch
from torch.autograd.functional import jacobian

# fit y = a * exp(-b t) + c by Gauss-Newton with Levenberg damping
t = torch.linspace(0, 4, 15)
y = 2.5 * torch.exp(-1.3 * t) + 0.4 + 0.01 * torch.sin(5 * t)
theta = torch.tensor([1.0, 0.5, 0.0])

def residual(th):
    return th[0] * torch.exp(-th[1] * t) + th[2] - y

lam = 1e-2
for it in range(8):
    r = residual(theta)
    J = jacobian(residual, theta)
    A = J.T @ J + lam * torch.eye(3)
    step = torch.linalg.solve(A, -J.T @ r)
    new = theta + step
    if residual(new).pow(2).sum() < r.pow(2).sum():
        theta, lam = new, lam * 0.5
    else:
        lam *= 4
    print(it, f"{r.pow(2).sum().item():.6e}", theta.round(decimals=5), f"{lam:.5f}")
cov = torch.linalg.inv(J.T @ J) * r.pow(2).sum() / (len(t) - 3)
print(cov.diagonal().sqrt().round(decimals=5))
th = theta.clone().requires_grad_()
obj = residual(th).pow(2).sum()
g, = torch.autograd.grad(obj, th)
print(g.abs().max() < 1e-3, torch.linalg.eigvalsh(torch.autograd.functional.hessian(lambda q: residual(q).pow(2).sum(), theta)).round(decimals=4))
