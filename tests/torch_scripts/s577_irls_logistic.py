import torch

x1 = torch.linspace(-2, 2, 30)
X = torch.stack([torch.ones(30), x1, torch.sin(3 * x1)], 1)
y = ((x1 + 0.7 * torch.cos(5 * x1)) > 0).double()
w = torch.zeros(3)
for it in range(25):
    p = torch.sigmoid(X @ w)
    Wd = p * (1 - p)
    grad = X.T @ (p - y) + 0.1 * w
    H = X.T @ (Wd.unsqueeze(1) * X) + 0.1 * torch.eye(3)
    step = torch.linalg.solve(H, grad)
    w = w - step
    if step.abs().max() < 1e-12:
        break
print(it, w.round(decimals=6) + 0.0)
wt = torch.zeros(3, requires_grad=True)


def nll(w):
    z = X @ w
    return torch.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="sum") + 0.05 * w.dot(w)


opt = torch.optim.LBFGS([wt], lr=1, max_iter=100, tolerance_grad=1e-10, tolerance_change=1e-14, history_size=10)


def closure():
    opt.zero_grad()
    l = nll(wt)
    l.backward()
    return l


opt.step(closure)
print(torch.allclose(wt.detach(), w, atol=1e-6), round(nll(wt).item(), 6))
H = torch.autograd.functional.hessian(nll, w)
cov = torch.linalg.inv(H)
se = cov.diagonal().sqrt()
print(se, (w / se).round(decimals=6) + 0.0)
print(torch.special.expit(X[:3] @ w), torch.logit(torch.sigmoid(X[:3] @ w), eps=1e-6))
print(torch.nn.functional.logsigmoid(X[:3] @ w), torch.special.log_ndtr(torch.tensor([0.0, -1.0])))
