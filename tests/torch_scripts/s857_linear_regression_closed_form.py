# Linear regression three ways: normal equations with linalg.solve, lstsq, and gradient
# descent with nn.Linear; comparing coefficients
import torch

t = torch.linspace(0, 1, 20)
X = torch.stack([torch.ones(20), t, t ** 2], 1)
y = 1.0 + 2.0 * t - 3.0 * t ** 2 + 0.05 * torch.sin(20 * t)
beta = torch.linalg.solve(X.T @ X, X.T @ y)
print(beta)
sol = torch.linalg.lstsq(X, y.unsqueeze(1))
print(sol.solution.squeeze(1), sol.rank if sol.rank.numel() else None)
print(torch.linalg.pinv(X) @ y)
model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.zero_()
    model.bias.zero_()
opt = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=100, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    loss = ((model(X[:, 1:]).squeeze(1) - y) ** 2).mean()
    loss.backward()
    return loss
for _ in range(3):
    opt.step(closure)
print(torch.cat([model.bias.data, model.weight.data.squeeze(0)]).round(decimals=5))
resid = y - X @ beta
print(round(resid.pow(2).sum().item(), 8), round((1 - resid.var() / y.var()).item(), 6))
