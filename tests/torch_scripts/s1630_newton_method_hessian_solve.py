# Newton's method with autograd Hessians on a convex function; iterates and gradient norms
import torch
from torch.autograd.functional import hessian


def f(w):
    return torch.logsumexp(torch.stack([w[0] + 2 * w[1], -w[0], w[1] - 1.0]), 0) + 0.5 * (w ** 2).sum()


w = torch.tensor([1.0, -1.0])
for it in range(5):
    wr = w.clone().requires_grad_()
    (g,) = torch.autograd.grad(f(wr), wr)
    H = hessian(f, w)
    step = torch.linalg.solve(H, g)
    w = w - step
    print(it, w.round(decimals=8), float(g.norm()) < 10)
print(round(f(w).item(), 10), torch.linalg.eigvalsh(hessian(f, w)).round(decimals=6))
