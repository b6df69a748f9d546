import torch

X = torch.linspace(-3, 3, 10).unsqueeze(1)
y = (X.squeeze() > 0).double() * 2 - 1
y[3] = 1.0
K = torch.exp(-0.5 * torch.cdist(X, X) ** 2 / 1.0 ** 2) + 1e-8 * torch.eye(10)
f = torch.zeros(10)
for it in range(20):
    pi = torch.sigmoid(f)
    t = (y + 1) / 2
    W = pi * (1 - pi)
    sW = W.sqrt()
    B = torch.eye(10) + sW.unsqueeze(1) * K * sW.unsqueeze(0)
    L = torch.linalg.cholesky(B)
    b = W * f + (t - pi)
    a = b - sW * torch.cholesky_solve((sW * (K @ b)).unsqueeze(1), L).squeeze(1)
    f_new = K @ a
    if (f_new - f).abs().max() < 1e-10:
        break
    f = f_new
print(it, f.round(decimals=4))
logZ = -0.5 * a @ f + torch.nn.functional.logsigmoid(y * f).sum() - torch.log(torch.diagonal(L)).sum()
print(round(logZ.item(), 6))
Xs = torch.tensor([[-1.0], [0.0], [2.5]])
ks = torch.exp(-0.5 * torch.cdist(Xs, X) ** 2)
mean = ks @ (t - pi)
v = torch.linalg.solve_triangular(L, (sW.unsqueeze(1) * ks.T), upper=False)
var = 1.0 - (v ** 2).sum(0)
prob = torch.sigmoid(mean / torch.sqrt(1 + torch.pi * var / 8))
print(mean.round(decimals=4), var.round(decimals=4), prob.round(decimals=4))
