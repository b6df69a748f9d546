import torch

# A chain of n links hung between two pins: minimise potential energy with stiff links.
n = 10
L0 = 1.4 / n
left, right = torch.tensor([0.0, 0.0]), torch.tensor([1.0, 0.0])
init = torch.stack([torch.linspace(0, 1, n + 1)[1:-1], torch.zeros(n - 1)], dim=1)
pts = init.clone().requires_grad_()
opt = torch.optim.LBFGS([pts], lr=1, max_iter=200, tolerance_grad=1e-9, tolerance_change=1e-12, line_search_fn="strong_wolfe")

def energy():
    P = torch.cat([left[None], pts, right[None]])
    seg = (P[1:] - P[:-1]).norm(dim=1)
    stretch = 1000.0 * ((seg - L0) ** 2).sum()
    gravity = P[:, 1].sum() * 0.1
    return stretch + gravity

def closure():
    opt.zero_grad()
    e = energy()
    e.backward()
    return e

for _ in range(3):
    opt.step(closure)
P = pts.detach()
print(round(energy().item(), 4))
print(P[:, 1].round(decimals=3))
print(torch.allclose(P[:, 1], P[:, 1].flip(0), atol=1e-4), P[:, 1].argmin().item() in (3, 4, 5))
