import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [0.0, 0.0, 4.0]], requires_grad=True)
target = torch.tensor([0, 2, 1, 0])


def focal_loss(logits, target, gamma=2.0, alpha=None):
    logp = F.log_softmax(logits, dim=1)
    logp_t = logp.gather(1, target.unsqueeze(1)).squeeze(1)
    p_t = logp_t.exp()
    loss = -((1 - p_t) ** gamma) * logp_t
    if alpha is not None:
        loss = alpha[target] * loss
    return loss.mean()


fl = focal_loss(logits, target)
ce = F.cross_entropy(logits, target)
print(round(fl.item(), 6), round(ce.item(), 6))
print(torch.allclose(focal_loss(logits, target, gamma=0.0), ce))
fl.backward()
print(logits.grad)
eps = 0.1
ls = F.cross_entropy(logits, target, label_smoothing=eps)
logp = F.log_softmax(logits, 1)
manual = ((1 - eps) * F.nll_loss(logp, target) - eps * logp.mean(1).mean())
print(round(ls.item(), 6), torch.allclose(ls, manual))
soft_targets = F.one_hot(target, 3).double() * (1 - eps) + eps / 3
print(torch.allclose(F.cross_entropy(logits, soft_targets), ls))
w = torch.tensor([1.0, 2.0, 0.5])
print(round(F.cross_entropy(logits, target, weight=w, label_smoothing=0.2).item(), 6))
crit = nn.CrossEntropyLoss(label_smoothing=0.05, reduction="none")
print(crit(logits, target))
print(crit)
alpha = torch.tensor([0.25, 0.5, 0.25])
print(round(focal_loss(logits, target, alpha=alpha).item(), 6))
bin_logits = torch.tensor([1.0, -2.0, 0.5])
bin_t = torch.tensor([1.0, 0.0, 0.0])
p = torch.sigmoid(bin_logits)
bce = F.binary_cross_entropy_with_logits(bin_logits, bin_t, reduction="none")
pt = p * bin_t + (1 - p) * (1 - bin_t)
print((bce * (1 - pt) ** 2).round(decimals=5))
