import torch

# Bayesian logistic regression, unadjusted Langevin with a fixed "noise" sequence
X = torch.stack([torch.ones(12), torch.linspace(-2, 2, 12)], 1)
y = (X[:, 1] + 0.3 * torch.sin(5 * X[:, 1]) > 0).double()
w = torch.zeros(2, requires_grad=True)

def log_post(w):
    logits = X @ w
    ll = -torch.nn.functional.binary_cross_entropy_with_logits(logits, y, reduction="sum")
    return ll - 0.5 * (w ** 2).sum() / 4.0

eps = 0.02
samples = []
for k in range(200):
    lp = log_post(w)
    (g,) = torch.autograd.grad(lp, w)
    noise = torch.stack([torch.sin(torch.tensor(k * 1.7)), torch.cos(torch.tensor(k * 2.3))])
    with torch.no_grad():
        w += 0.5 * eps * g + (eps ** 0.5) * noise * 0.1
    if k >= 100:
        samples.append(w.detach().clone())
S = torch.stack(samples)
print(S.shape, S.mean(0).round(decimals=3), S.std(0).round(decimals=3))
probs = torch.sigmoid(X @ S.T).mean(1)
print(probs.round(decimals=3))
acc = ((probs > 0.5).double() == y).double().mean()
print(acc.item())
# Laplace approximation at the MAP
w_map = torch.zeros(2, requires_grad=True)
opt = torch.optim.LBFGS([w_map], lr=1, max_iter=50)
def closure():
    opt.zero_grad()
    l = -log_post(w_map)
    l.backward()
    return l
opt.step(closure)
H = torch.autograd.functional.hessian(lambda v: -log_post(v), w_map.detach())
cov = torch.linalg.inv(H)
print(w_map.detach()[1:].round(decimals=4), cov.diagonal().round(decimals=4))
print(torch.linalg.eigvalsh(H).round(decimals=4))
