# Newton's method for a smooth convex function with autograd Hessian and linalg.solve
import torch
from torch.autograd.functional import hessian

def f(x):
    return torch.log(torch.exp(x).sum()) + 0.5 * (x ** 2).sum() - x[0]

x = torch.tensor([1.0, -1.0, 0.5])
for it in range(6):
    xg = x.clone().requires_grad_()
    (g,) = torch.autograd.grad(f(xg), xg)
    H = hessian(f, x)
    step = torch.linalg.solve(H, g)
    x = x - step
    print(it, round(f(x).item(), 10), f"{g.norm().item():.4e}")
print(x)
print(torch.linalg.eigvalsh(hessian(f, x)))
