"""Fit y = w x + b by minibatch stochastic gradient descent with momentum and a decaying
learning rate (set through ``optimizer.param_groups``, as in PyTorch).

Written as PyTorch code: swapping the two imports below for `import torch` and
`import torch.nn.functional as F` runs the same fit in PyTorch.
"""
import sys

import numpy as np

import tapegrad as torch
import tapegrad.nn.functional as F

TRUE_W, TRUE_B = 2.5, -1.0

rng = np.random.default_rng(1)
x_np = rng.uniform(-2.0, 2.0, 200)
y_np = TRUE_W * x_np + TRUE_B + rng.normal(0.0, 0.3, 200)
x = torch.tensor(x_np)
y = torch.tensor(y_np)

w = torch.zeros(1, dtype=torch.float64, requires_grad=True)
b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.05, momentum=0.9)

for epoch in range(40):
    for batch in np.array_split(rng.permutation(200), 10):  # 10 minibatches of 20
        idx = torch.tensor(batch)
        optimizer.zero_grad()
        loss = F.mse_loss(w * x[idx] + b, y[idx])
        loss.backward()
        optimizer.step()
    for group in optimizer.param_groups:
        group["lr"] *= 0.9
    if epoch % 5 == 0 or epoch == 39:
        with torch.no_grad():
            full = F.mse_loss(w * x + b, y).item()
        print(f"epoch {epoch:2d}  loss {full:.4f}  w {w.item():+.4f}  b {b.item():+.4f}")

# the least-squares solution, for comparison
A = np.stack([x_np, np.ones_like(x_np)], axis=1)
w_ls, b_ls = np.linalg.lstsq(A, y_np, rcond=None)[0]
print(f"fitted w = {w.item():.4f}, b = {b.item():.4f}; least squares w = {w_ls:.4f}, "
      f"b = {b_ls:.4f}; true w = {TRUE_W}, b = {TRUE_B}")
if abs(w.item() - w_ls) > 0.01 or abs(b.item() - b_ls) > 0.01:
    sys.exit("SGD did not reach the least-squares fit")
