# A deep MLP trained with torch.utils.checkpoint.checkpoint_sequential (segments) and with
# plain backprop from the same start: identical losses and gradients (PyTorch re-runs the
# segments in backward, firing the counting forward hook again; tapegrad records them
# once: docs/limits.md, so only "at least once per step" is printed)
import copy
import numpy as np
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint_sequential

rng = np.random.default_rng(981)
layers = []
for i in range(6):
    layers += [nn.Linear(8, 8), nn.GELU()]
base = nn.Sequential(*layers, nn.Linear(8, 1))
with torch.no_grad():
    for p in base.parameters():
        p.copy_(torch.from_numpy(rng.normal(0, 0.35, tuple(p.shape))))
X = torch.from_numpy(rng.standard_normal((16, 8)))
y = torch.from_numpy(rng.standard_normal((16, 1)))
plain, ckpt = copy.deepcopy(base), copy.deepcopy(base)
calls = {"n": 0}
ckpt[0].register_forward_hook(lambda m, i, o: calls.__setitem__("n", calls["n"] + 1))
opts = [torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9) for m in (plain, ckpt)]
for it in range(4):
    losses = []
    for k, (m, opt) in enumerate(zip((plain, ckpt), opts)):
        opt.zero_grad()
        x = X.clone().requires_grad_(k == 1)
        out = m(x) if k == 0 else checkpoint_sequential(m, 3, x, use_reentrant=False)
        loss = nn.functional.mse_loss(out, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(it, f"{losses[0]:.8f}", f"{losses[1]:.8f}")
same = all(torch.allclose(a, b, atol=1e-12) for a, b in zip(plain.parameters(), ckpt.parameters()))
print("same params", same, "first-layer forwards >= 4", calls["n"] >= 4)
print(ckpt[-1].weight.grad.numpy().round(6))
