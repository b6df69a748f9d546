import torch

x = torch.linspace(-1, 1, 9)
y = 0.5 - 2.0 * x + 3.0 * x ** 2 + 0.05 * torch.sin(7 * x)
V = torch.linalg.vander(x, N=3)
print(V[:2])
sol = torch.linalg.lstsq(V, y.unsqueeze(1))
print(sol.solution.squeeze(1).round(decimals=5), sol.rank, sol.residuals, sol.singular_values)
gelsd = torch.linalg.lstsq(V, y.unsqueeze(1), driver="gelsd")
print(gelsd.solution.squeeze(1).round(decimals=5), gelsd.rank, gelsd.singular_values.round(decimals=5))
gelss = torch.linalg.lstsq(V, y.unsqueeze(1), driver="gelss")
print(torch.allclose(gelss.solution, sol.solution), gelss.rank)
coef_pinv = torch.linalg.pinv(V) @ y
print(coef_pinv.round(decimals=5))
print(torch.allclose(V.pinverse() @ y, coef_pinv))
sym = torch.tensor([[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 0.0]])
ph = torch.linalg.pinv(sym, hermitian=True)
print(ph.round(decimals=6))
print(torch.linalg.pinv(sym, atol=1.5).round(decimals=6))
print(torch.linalg.pinv(sym, rtol=0.5).round(decimals=6))
Vr = V.clone().requires_grad_()
c = torch.linalg.lstsq(Vr, y.unsqueeze(1)).solution
c.sum().backward()
print(Vr.grad[:3].round(decimals=5))
batch = torch.stack([V, 2 * V])
bs = torch.linalg.lstsq(batch, torch.stack([y, y]).unsqueeze(-1)).solution
print(bs.squeeze(-1).round(decimals=5))
