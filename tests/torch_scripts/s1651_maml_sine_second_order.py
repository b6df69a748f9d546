# MAML on sine regression tasks: functional forward with explicit weight lists, inner SGD
# step via autograd.grad(create_graph=True), outer Adam update through the inner step
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

rng = np.random.default_rng(31)
TASKS = [(rng.uniform(0.5, 2.0), rng.uniform(0, np.pi)) for _ in range(12)]
XS = rng.uniform(-3, 3, size=(12, 2, 10, 1))


class SineNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(1, 20)
        self.l2 = nn.Linear(20, 20)
        self.l3 = nn.Linear(20, 1)

    def forward(self, x, params=None):
        if params is None:
            params = list(self.parameters())
        w1, b1, w2, b2, w3, b3 = params
        x = F.relu(F.linear(x, w1, b1))
        x = F.relu(F.linear(x, w2, b2))
        return F.linear(x, w3, b3)


net = SineNet()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.from_numpy(np.random.default_rng(i).normal(0, 0.4, tuple(p.shape))))
meta_opt = torch.optim.Adam(net.parameters(), lr=1e-3)
inner_lr = 0.01


def task_batch(k):
    amp, phase = TASKS[k]
    xs, xq = (torch.from_numpy(XS[k, j]) for j in range(2))
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)


for it in range(4):
    meta_opt.zero_grad()
    meta_loss = 0.0
    for k in range(3 * it, 3 * it + 3):
        xs, ys, xq, yq = task_batch(k)
        params = list(net.parameters())
        support = F.mse_loss(net(xs, params), ys)
        grads = torch.autograd.grad(support, params, create_graph=True)
        fast = [p - inner_lr * g for p, g in zip(params, grads)]
        query = F.mse_loss(net(xq, fast), yq)
        meta_loss = meta_loss + query
    meta_loss = meta_loss / 3
    meta_loss.backward()
    gnorm = torch.sqrt(sum((p.grad ** 2).sum() for p in net.parameters()))
    meta_opt.step()
    print(it, f"{meta_loss.item():.6f}", f"{gnorm.item():.6f}")

xs, ys, xq, yq = task_batch(11)
params = list(net.parameters())
g = torch.autograd.grad(F.mse_loss(net(xs), ys), params, create_graph=True)
fast = [p - inner_lr * gi for p, gi in zip(params, g)]
q = F.mse_loss(net(xq, fast), yq)
first = torch.autograd.grad(q, params, retain_graph=True)
fo = torch.autograd.grad(F.mse_loss(net(xq, [f.detach().requires_grad_() for f in fast]), yq),
                         params, allow_unused=True)
print("second-order differs from first-order:",
      not torch.allclose(first[0], torch.zeros_like(first[0])), fo[0] is None)
print(first[-1].numpy().round(6), first[1][:3].numpy().round(6))
