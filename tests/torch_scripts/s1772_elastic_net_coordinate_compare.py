# Elastic-net linear regression three ways: closed-form ridge via torch.linalg.lstsq on an
# augmented system, full-batch gradient descent on the elastic-net objective with
# torch.optim.Adam, and ISTA-style proximal updates; the solutions compared
import numpy as np
import torch

rng = np.random.default_rng(1191)
n, d = 60, 8
X = torch.from_numpy(rng.standard_normal((n, d)))
beta = torch.tensor([2.0, -1.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0])
y = X @ beta + 0.1 * torch.from_numpy(rng.standard_normal(n))
l1, l2 = 0.05, 0.1
Xa = torch.cat([X, np.sqrt(n * l2) * torch.eye(d)])
ya = torch.cat([y, torch.zeros(d)])
ridge = torch.linalg.lstsq(Xa, ya.unsqueeze(1)).solution.squeeze(1)
print("ridge", ridge.numpy().round(4))


def objective(w):
    return 0.5 * ((X @ w - y) ** 2).mean() + l1 * w.abs().sum() + 0.5 * l2 * (w ** 2).sum()


w = torch.zeros(d, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.05)
for it in range(300):
    opt.zero_grad()
    loss = objective(w)
    loss.backward()
    opt.step()
print("adam", w.detach().numpy().round(3), f"{loss.item():.6f}")
L = torch.linalg.eigvalsh(X.T @ X / n).max().item() + l2
v = torch.zeros(d)
for it in range(500):
    v = v.clone().requires_grad_(True)
    smooth = 0.5 * ((X @ v - y) ** 2).mean() + 0.5 * l2 * (v ** 2).sum()
    (g,) = torch.autograd.grad(smooth, v)
    with torch.no_grad():
        z = v - g / L
        v = torch.sign(z) * torch.clamp(z.abs() - l1 / L, min=0)
print("ista", v.numpy().round(4), f"{objective(v).item():.6f}", int((v == 0).sum()))
