import torch

t = torch.linspace(0, 1, 20)
y = 2.0 + 3.0 * t + 0.05 * torch.sin(17 * t)
y[[3, 11, 16]] += torch.tensor([4.0, -5.0, 6.0])
X = torch.stack([torch.ones(20), t], 1)
ols = torch.linalg.lstsq(X, y.unsqueeze(1)).solution.squeeze()
print("ols", ols.round(decimals=4))
beta = ols.clone()
for it in range(30):
    r = y - X @ beta
    s = (r.abs().median() / 0.6745).clamp(min=1e-8)
    u = r / (1.345 * s)
    w = torch.where(u.abs() <= 1, torch.ones_like(u), 1 / u.abs())
    W = torch.diag(w)
    beta_new = torch.linalg.solve(X.T @ W @ X, X.T @ W @ y)
    if (beta_new - beta).abs().max() < 1e-10:
        break
    beta = beta_new
print("irls", it, beta.round(decimals=4))
b = torch.zeros(2, requires_grad=True)
opt = torch.optim.LBFGS([b], lr=1, max_iter=100, line_search_fn="strong_wolfe")
def closure():
    opt.zero_grad()
    loss = torch.nn.functional.huber_loss(X @ b, y, delta=0.5)
    loss.backward()
    return loss
opt.step(closure)
print("huber", b.detach().round(decimals=4))
b2 = torch.zeros(2, requires_grad=True)
opt2 = torch.optim.SGD([b2], lr=0.5)
for _ in range(400):
    opt2.zero_grad()
    loss = torch.nn.functional.l1_loss(X @ b2, y)
    loss.backward()
    opt2.step()
print("l1", b2.detach().round(decimals=1), torch.nn.functional.smooth_l1_loss(X @ b2, y, beta=0.1).item() > 0)
def tukey(r, c=4.685):
    return torch.where(r.abs() <= c, c ** 2 / 6 * (1 - (1 - (r / c) ** 2) ** 3), torch.full_like(r, c ** 2 / 6))
b3 = beta.clone().requires_grad_()
H = torch.autograd.functional.hessian(lambda bb: tukey((y - X @ bb) / 0.1).sum(), b3.detach())
g = torch.autograd.grad(tukey((y - X @ b3) / 0.1).sum(), b3)[0]
print(H.round(decimals=2), g.abs().max() < 1e3)
q = torch.quantile(y - X @ beta, torch.tensor([0.25, 0.5, 0.75]))
print(q.round(decimals=4), (q[2] - q[0]).round(decimals=4))
