import torch
import torch.nn as nn
import torch.nn.functional as F

pred = torch.linspace(-2, 3, 11, requires_grad=True)
target = torch.linspace(0, 1, 11)


def pinball(pred, target, q):
    diff = target - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


for q in (0.1, 0.5, 0.9):
    if pred.grad is not None:
        pred.grad.zero_()
    l = pinball(pred, target, q)
    l.backward()
    print(q, round(l.item(), 6), pred.grad.tolist()[:4])
for name, fn in [("huber", lambda: F.huber_loss(pred, target, delta=0.5)),
                 ("huber_sum", lambda: F.huber_loss(pred, target, reduction="sum", delta=2.0)),
                 ("smoothl1", lambda: F.smooth_l1_loss(pred, target, beta=0.3)),
                 ("smoothl1_b0", lambda: F.smooth_l1_loss(pred, target, beta=0.0)),
                 ("l1", lambda: F.l1_loss(pred, target, reduction="none").sum()),
                 ("logcosh", lambda: torch.log(torch.cosh(pred - target)).mean())]:
    pred.grad = None
    l = fn()
    l.backward()
    print(name, round(l.item(), 6), [round(v, 5) for v in pred.grad.tolist()])
print(nn.HuberLoss(delta=1.5), nn.SmoothL1Loss(beta=0.5, reduction="sum"))
x = torch.tensor([[1.0, 5.0, -2.0, 7.0], [0.0, 3.0, 3.0, -1.0]])
for interp in ("linear", "lower", "higher", "midpoint", "nearest"):
    print(interp, torch.quantile(x, torch.tensor([0.25, 0.5, 0.9]), dim=1, keepdim=True, interpolation=interp).squeeze(-1).tolist())
print(torch.quantile(x, 0.3), torch.nanquantile(torch.tensor([1.0, float("nan"), 3.0]), 0.5))
xq = x.clone().requires_grad_(True)
torch.quantile(xq, 0.4, dim=1).sum().backward()
print(xq.grad)
print(torch.median(x, dim=1), x.flatten().median())
print(torch.nanmedian(torch.tensor([2.0, float("nan"), 1.0, 5.0])))
