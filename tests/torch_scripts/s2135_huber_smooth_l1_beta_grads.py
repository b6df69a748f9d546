import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.tensor([0.0, 0.3, 1.0, 2.5, -4.0, 0.99], requires_grad=True)
tgt = torch.tensor([0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
for delta in [0.5, 1.0, 2.0]:
    h = F.huber_loss(pred, tgt, delta=delta, reduction="none")
    s = F.smooth_l1_loss(pred, tgt, beta=delta, reduction="none")
    print(delta, h.detach().round(decimals=4).tolist(), torch.allclose(h, s * delta))
g_h, = torch.autograd.grad(F.huber_loss(pred, tgt, delta=1.0, reduction="sum"), pred)
g_s, = torch.autograd.grad(F.smooth_l1_loss(pred, tgt, beta=0.5, reduction="sum"), pred)
print(g_h, g_s)
print(F.smooth_l1_loss(pred, tgt, beta=0.0).detach().round(decimals=5), F.l1_loss(pred, tgt).detach().round(decimals=5))
crit = nn.HuberLoss(reduction="mean", delta=1.5)
x = torch.linspace(-3, 3, 7, requires_grad=True)
l = crit(x, torch.zeros(7))
l.backward()
print(l.detach().round(decimals=5), x.grad.round(decimals=5))
print(F.mse_loss(x.detach(), torch.ones(7), reduction="sum"))
