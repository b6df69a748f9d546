# Sparse regression on polynomial features: features via torch.pow broadcasting and
# standardization, L1 by proximal gradient (soft-thresholding with torch.sign and clamp
# under no_grad after each step), compared with an Adam run on the L1-penalized loss
import numpy as np
import torch

rng = np.random.default_rng(1011)
x = torch.from_numpy(rng.uniform(-1, 1, 50))
y = 1.5 * x - 2.0 * x ** 3 + 0.05 * torch.from_numpy(rng.standard_normal(50))
powers = torch.arange(1, 8)
Phi = x.unsqueeze(1) ** powers
Phi = (Phi - Phi.mean(0)) / Phi.std(0)
lam, lr = 0.05, 0.1

w = torch.zeros(7, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=lr)
for it in range(60):
    opt.zero_grad()
    loss = 0.5 * ((Phi @ w + b - y) ** 2).mean()
    loss.backward()
    opt.step()
    with torch.no_grad():
        w.copy_(torch.sign(w) * torch.clamp(w.abs() - lr * lam, min=0))
    if it % 20 == 19:
        print(it, f"{loss.item():.6f}", int((w != 0).sum()))
print(w.detach().numpy().round(4), b.item().__round__(5))
w2 = torch.zeros(7, requires_grad=True)
b2 = torch.zeros(1, requires_grad=True)
opt2 = torch.optim.Adam([w2, b2], lr=0.05)
for it in range(60):
    opt2.zero_grad()
    loss2 = 0.5 * ((Phi @ w2 + b2 - y) ** 2).mean() + lam * w2.abs().sum()
    loss2.backward()
    opt2.step()
print(f"{loss2.item():.6f}", w2.detach().numpy().round(3))
print(w2.grad.numpy().round(5))
