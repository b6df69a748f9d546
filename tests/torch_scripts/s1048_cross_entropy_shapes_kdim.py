# cross_entropy / nll_loss over K-dimensional inputs (N, C, d1, d2) with ignore_index and weights, probabilities targets in 3-D
import torch
import torch.nn.functional as F

logits = torch.arange(24.0).view(2, 3, 2, 2).sin()
target = torch.tensor([[[0, 1], [2, -100]], [[1, 1], [0, 2]]])
print(F.cross_entropy(logits, target).round(decimals=5))
print(F.cross_entropy(logits, target, reduction="none").round(decimals=4))
print(F.cross_entropy(logits, target, weight=torch.tensor([1.0, 2.0, 0.5]), reduction="sum").round(decimals=5))
print(F.nll_loss(F.log_softmax(logits, 1), target.clamp(min=0), ignore_index=2).round(decimals=5))
probs = F.softmax(torch.arange(18.0).view(2, 3, 3).cos(), dim=1)
print(F.cross_entropy(torch.arange(18.0).view(2, 3, 3) / 10, probs).round(decimals=5))
x = logits.clone().requires_grad_()
F.cross_entropy(x, target, label_smoothing=0.1).backward()
print(x.grad[0, :, 1, 1].round(decimals=5), x.grad[0, :, 1, 1].sum().abs() < 1e-12)
try:
    F.cross_entropy(logits, target[:, :1])
except (RuntimeError, ValueError) as e:
    print(type(e).__name__)
