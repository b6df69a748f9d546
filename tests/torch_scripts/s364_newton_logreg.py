import torch
from torch.func import hessian, grad

X = torch.tensor([[1.0, 0.5, -1.2], [1.0, -0.3, 0.8], [1.0, 1.5, 0.1], [1.0, -1.0, -0.4], [1.0, 0.2, 2.0], [1.0, -0.7, 1.1]])
y = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0, 0.0])


def nll(w):
    logits = X @ w
    return torch.nn.functional.binary_cross_entropy_with_logits(logits, y, reduction="sum") + 0.5 * (w ** 2).sum()


w = torch.zeros(3)
for it in range(6):
    g = grad(nll)(w)
    H = hessian(nll)(w)
    step = torch.linalg.solve(H, g)
    w = w - step
    print(it, f"{nll(w).item():.8f}", g.norm().item() < 1e-12 if it > 3 else f"{g.norm().item():.6f}")
print(w.round(decimals=6))
p = torch.sigmoid(X @ w)
Hexact = X.T @ torch.diag(p * (1 - p)) @ X + torch.eye(3)
print(torch.allclose(hessian(nll)(w), Hexact))
cov = torch.linalg.inv(Hexact)
print(cov.diagonal().sqrt().round(decimals=5))
wr = torch.zeros(3, requires_grad=True)
opt = torch.optim.LBFGS([wr], line_search_fn="strong_wolfe", max_iter=50, tolerance_grad=1e-10)


def closure():
    opt.zero_grad()
    l = nll(wr)
    l.backward()
    return l


opt.step(closure)
print(torch.allclose(wr.detach(), w, atol=1e-6))
