import torch
from torch.autograd.functional import hessian, jacobian

def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2

p = torch.tensor([-1.2, 1.0])
for it in range(8):
    g = jacobian(rosen, p)
    H = hessian(rosen, p)
    step = torch.linalg.solve(H, g)
    p = p - step
    print(it, p.round(decimals=6).tolist(), f"{rosen(p).item():.3e}")
H = hessian(rosen, torch.tensor([1.0, 1.0]))
print(H)
print(torch.linalg.eigvalsh(H).round(decimals=4))
