# MAML on sine-wave regression tasks: torch.func.functional_call with a dict of fast
# weights, an inner SGD step by autograd.grad(create_graph=True), the meta-loss backward
# into the slow weights and an Adam meta-step; first-order variant for comparison
import torch
import torch.nn as nn
from torch.func import functional_call

net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 0.9 + i).view_as(p) * 0.5)
meta_opt = torch.optim.Adam(net.parameters(), lr=0.01)
tasks = [(a, ph) for a, ph in [(1.0, 0.0), (0.5, 1.0), (1.5, -0.5)]]
xs = torch.linspace(-3, 3, 10).unsqueeze(1)
xq = torch.linspace(-2.5, 2.5, 7).unsqueeze(1)


def meta_loss(first_order):
    total = 0.0
    for a, ph in tasks:
        params = dict(net.named_parameters())
        ys, yq = a * torch.sin(xs + ph), a * torch.sin(xq + ph)
        for _ in range(2):
            inner = nn.functional.mse_loss(functional_call(net, params, (xs,)), ys)
            grads = torch.autograd.grad(inner, list(params.values()),
                                        create_graph=not first_order)
            params = {n: p - 0.1 * g for (n, p), g in zip(params.items(), grads)}
        total = total + nn.functional.mse_loss(functional_call(net, params, (xq,)), yq)
    return total / len(tasks)


for it in range(3):
    meta_opt.zero_grad()
    loss = meta_loss(first_order=False)
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
    meta_opt.step()
    print(it, f"{loss.item():.6f}", f"{gn.item():.6f}")
net.zero_grad()
meta_loss(first_order=True).backward()
print(f"{net[0].weight.grad.norm().item():.6f}", net[2].bias.grad)
