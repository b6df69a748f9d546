# R1 penalty (gradient of D at real data, squared norm) and gradient of the penalty w.r.t. D's weights
import torch
import torch.nn as nn

D = nn.Sequential(nn.Linear(2, 4), nn.Softplus(), nn.Linear(4, 1))
with torch.no_grad():
    for k, p in enumerate(D.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) + k).reshape(p.shape) * 0.5)
real = torch.tensor([[0.3, -0.7], [1.2, 0.4]], requires_grad=True)
score = D(real).sum()
g, = torch.autograd.grad(score, real, create_graph=True)
r1 = g.pow(2).sum(dim=1).mean()
params = list(D.parameters())
gp = torch.autograd.grad(r1, params, allow_unused=True, retain_graph=True)
print(round(r1.item(), 8), [None if t is None else tuple(t.shape) for t in gp])
print(gp[-1], gp[0].round(decimals=6))
r1.backward()
print(params[1].grad.round(decimals=6), real.grad.round(decimals=6))
