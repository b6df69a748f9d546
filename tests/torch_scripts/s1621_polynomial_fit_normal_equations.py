# fitting a cubic three ways: normal equations, lstsq, and gradient descent; they agree
import torch

x = torch.linspace(-1, 1, 9)
y = 0.5 - x + 2 * x ** 3 + 0.01 * torch.cos(7 * x)
V = torch.vander(x, N=4, increasing=True)
normal = torch.linalg.solve(V.T @ V, V.T @ y)
ls = torch.linalg.lstsq(V, y.unsqueeze(1)).solution.squeeze(1)
print(normal, torch.allclose(normal, ls))
c = torch.zeros(4, requires_grad=True)
opt = torch.optim.Adam([c], lr=0.1)
for _ in range(300):
    opt.zero_grad()
    loss = ((V @ c - y) ** 2).mean()
    loss.backward()
    opt.step()
print(c.detach().round(decimals=3), round(loss.item(), 6))
print(torch.allclose(c.detach(), normal, atol=1e-2))
print(torch.linalg.cond(V).round(decimals=4), torch.linalg.matrix_rank(V))
