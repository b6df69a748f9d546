import torch
import torch.nn.functional as F

X = torch.tensor([[1.0, 0.5], [1.0, -1.0], [1.0, 2.0], [1.0, 0.0], [1.0, 1.5], [1.0, -0.5]])
y = torch.tensor([1.0, 0.0, 1.0, 0.0, 0.0, 1.0])

def nll(beta):
    return F.binary_cross_entropy_with_logits(X @ beta, y, reduction="sum") + 0.05 * beta.pow(2).sum()

beta = torch.zeros(2)
for it in range(6):
    g = torch.func.grad(nll)(beta)
    H = torch.func.hessian(nll)(beta)
    beta = beta - torch.linalg.solve(H, g)
    print(it, round(nll(beta).item(), 6), beta.round(decimals=5).tolist())
p = torch.sigmoid(X @ beta)
W = p * (1 - p)
H_manual = X.T @ (W[:, None] * X) + 0.1 * torch.eye(2)
print(torch.allclose(H_manual, torch.autograd.functional.hessian(nll, beta)))
cov = torch.linalg.inv(H_manual)
print(cov.diagonal().sqrt().round(decimals=4))
