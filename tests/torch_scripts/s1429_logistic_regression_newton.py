# logistic regression by Newton-Raphson (IRLS) using torch.func.hessian
import torch
from torch.func import grad, hessian
import torch.nn.functional as F

X = torch.tensor([[1.0, 0.5], [1.0, -1.0], [1.0, 2.0], [1.0, 0.0], [1.0, -0.5], [1.0, 1.0]])
y = torch.tensor([1.0, 0.0, 1.0, 0.0, 1.0, 0.0])
def nll(w):
    return F.binary_cross_entropy_with_logits(X @ w, y, reduction="sum") + 0.1 * (w ** 2).sum()
w = torch.zeros(2)
for it in range(6):
    g = grad(nll)(w)
    H = hessian(nll)(w)
    w = w - torch.linalg.solve(H, g)
    print(it, round(nll(w).item(), 10), g.norm().item() < 1e-12)
print(w)
