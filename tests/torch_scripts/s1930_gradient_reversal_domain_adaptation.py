# DANN's gradient reversal layer as the domain-adaptation papers' code writes it: an
# identity Function whose backward negates and scales the gradient (lambda from a
# schedule), a shared feature extractor, label and domain heads, and one optimizer
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return g.neg() * ctx.lambd, None


feat = nn.Sequential(nn.Linear(3, 6), nn.ReLU())
label_head, domain_head = nn.Linear(6, 2), nn.Linear(6, 1)
mods = nn.ModuleList([feat, label_head, domain_head])
with torch.no_grad():
    for i, p in enumerate(mods.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float64) * 1.3 + i).view_as(p) * 0.5)
opt = torch.optim.SGD(mods.parameters(), lr=0.05, momentum=0.9)
xs = torch.sin(torch.arange(12.0)).view(4, 3)
ys = torch.tensor([0, 1, 1, 0])
xt = torch.cos(torch.arange(12.0)).view(4, 3) + 0.5
for step in range(4):
    p = step / 4
    lambd = 2.0 / (1.0 + math.exp(-10 * p)) - 1
    fs, ft = feat(xs), feat(xt)
    cls_loss = F.cross_entropy(label_head(fs), ys)
    d_in = GradReverse.apply(torch.cat([fs, ft]), lambd)
    d_out = domain_head(d_in).squeeze(1)
    dom_loss = F.binary_cross_entropy_with_logits(d_out, torch.cat([torch.zeros(4), torch.ones(4)]))
    opt.zero_grad()
    (cls_loss + dom_loss).backward()
    g_feat = feat[0].weight.grad.norm().item()
    opt.step()
    print(step, f"{lambd:.4f} {cls_loss.item():.6f} {dom_loss.item():.6f} {g_feat:.6f}")
x = torch.ones(2, requires_grad=True)
y = GradReverse.apply(x * 3, 0.5)
y.sum().backward()
print(x.grad, y.grad_fn.__class__.__name__, y.requires_grad, y.is_leaf)
