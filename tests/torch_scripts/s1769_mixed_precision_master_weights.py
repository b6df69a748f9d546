# Mixed-precision training the manual way: float32 "fast" model copies for forward/backward,
# float64 master weights updated by the optimizer, gradients copied and unscaled from a
# static loss scale, overflow check with torch.isfinite, master weights copied back
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(1161)
X = torch.from_numpy(rng.standard_normal((32, 4)))
y = torch.from_numpy(rng.standard_normal((32, 1)))
master = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
with torch.no_grad():
    for q in master.parameters():
        q.copy_(torch.from_numpy(rng.normal(0, 0.4, tuple(q.shape))))
fast = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).float()
opt = torch.optim.SGD(master.parameters(), lr=0.1, momentum=0.9)
scale = 1024.0
for step in range(6):
    with torch.no_grad():
        for f, m in zip(fast.parameters(), master.parameters()):
            f.copy_(m)
    fast.zero_grad()
    loss = nn.functional.mse_loss(fast(X.float()), y.float())
    (loss * scale).backward()
    grads = [f.grad.double() / scale for f in fast.parameters()]
    finite = all(torch.isfinite(g).all() for g in grads)
    if finite:
        for m, g in zip(master.parameters(), grads):
            m.grad = g
        opt.step()
    print(step, f"{loss.item():.4f}", loss.dtype, finite)
print(next(fast.parameters()).dtype, next(master.parameters()).dtype)
print(master[2].weight.detach().numpy().round(4))
print(fast[2].weight.grad.dtype, (fast[2].weight.grad / scale).numpy().round(4))
