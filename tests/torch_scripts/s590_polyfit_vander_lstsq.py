import torch

x = torch.linspace(-1, 1, 21)
y = 0.5 - x + 2 * x ** 3 + 0.01 * torch.sin(30 * x)
V = torch.vander(x, N=4, increasing=True)
print(V[:2], torch.vander(torch.tensor([1.0, 2.0, 3.0])))
sol = torch.linalg.lstsq(V, y.unsqueeze(1))
print(sol.solution.squeeze(1).round(decimals=4), sol.rank, sol.singular_values.shape, sol.residuals.shape)
sol2 = torch.linalg.lstsq(V, y.unsqueeze(1), driver="gelsd")
print(sol2.rank, sol2.solution.squeeze(1).round(decimals=4), sol2.residuals.round(decimals=6))
coef = sol.solution.squeeze(1)


def horner(c, t):
    acc = torch.zeros_like(t)
    for ci in c.flip(0):
        acc = acc * t + ci
    return acc


print(torch.allclose(horner(coef, x), V @ coef))
Q, R = torch.linalg.qr(V)
c_qr = torch.linalg.solve_triangular(R, (Q.T @ y).unsqueeze(1), upper=True).squeeze(1)
print(torch.allclose(c_qr, coef), Q.shape, R.shape, torch.linalg.qr(V, mode="complete").Q.shape)
print(torch.linalg.cond(V).round(decimals=3), torch.linalg.cond(V[:4], p="fro") > 0)
c_pinv = torch.linalg.pinv(V) @ y
print(torch.allclose(c_pinv, coef))
resid = y - V @ coef
print(f"{resid.pow(2).sum().item():.6e}", f"R2={1 - resid.var() / y.var():.6f}")
d = torch.polygamma(1, torch.tensor([1.0, 2.0]))
print(d, torch.special.polygamma(2, torch.tensor(1.5)))
lin = torch.linalg.solve(V.T @ V, V.T @ y)
print(torch.allclose(lin, coef), torch.linalg.vector_norm(lin - coef) < 1e-8)
