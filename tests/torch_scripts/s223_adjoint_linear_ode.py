import torch

# dx/dt = A x, J = 0.5 |x(T)|^2; dJ/dA by the adjoint method, by autograd through RK4, and exactly
A = torch.tensor([[-0.5, 1.0], [-1.0, -0.2]], requires_grad=True)
x0 = torch.tensor([1.0, 0.0])
T, n = 2.0, 200
h = T / n

def rk4(f, x, h):
    k1 = f(x); k2 = f(x + h / 2 * k1); k3 = f(x + h / 2 * k2); k4 = f(x + h * k3)
    return x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)

xs = [x0]
x = x0
for _ in range(n):
    x = rk4(lambda v: A @ v, x, h)
    xs.append(x)
J = 0.5 * (x ** 2).sum()
(gA,) = torch.autograd.grad(J, A)
print(round(J.item(), 10), gA.round(decimals=8))
with torch.no_grad():
    Ad = A.detach()
    lam = xs[-1].clone()
    grad = torch.zeros(2, 2)
    traj = torch.stack(xs).detach()
    for k in range(n, 0, -1):
        # adjoint: dlam/dt = -A^T lam; dJ/dA = int lam x^T dt (trapezoid in the step)
        lam_prev = rk4(lambda v: Ad.T @ v, lam, h)
        grad += h / 2 * (torch.outer(lam, traj[k]) + torch.outer(lam_prev, traj[k - 1]))
        lam = lam_prev
print(grad.round(decimals=5), torch.allclose(grad, gA, atol=1e-4))
xT = torch.linalg.matrix_exp(A * T) @ x0
Jexact = 0.5 * (xT ** 2).sum()
(gE,) = torch.autograd.grad(Jexact, A)
print(round(Jexact.item(), 10), torch.allclose(gE, gA, atol=1e-8), (gE - gA).abs().max() < 1e-8)
Jv = torch.func.jacrev(lambda M: torch.linalg.matrix_exp(M * T) @ x0)(A.detach())
print(Jv.shape, Jv[0].round(decimals=6))
