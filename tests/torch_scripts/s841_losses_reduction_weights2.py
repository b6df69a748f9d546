# Losses with class weights, ignore_index, pos_weight, reduction='none' then manual mean,
# label_smoothing, and NLL on log_softmax equal to cross_entropy
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0], [1.0, 1.0, 1.0]])
target = torch.tensor([0, 2, 1, -100])
w = torch.tensor([1.0, 2.0, 0.5])
print(F.cross_entropy(logits, target), F.cross_entropy(logits, target, weight=w))
print(F.cross_entropy(logits, target, reduction="none"), F.cross_entropy(logits, target, reduction="sum"))
print(F.nll_loss(F.log_softmax(logits, 1), target, weight=w), F.cross_entropy(logits, target, label_smoothing=0.1))
print(F.cross_entropy(logits, torch.tensor([0, 2, 1, 1]), ignore_index=1))
crit = nn.CrossEntropyLoss(weight=w, ignore_index=2, label_smoothing=0.2)
print(crit(logits, torch.tensor([0, 2, 1, 0])), crit)
y = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
z = torch.tensor([[0.5, -0.5], [2.0, 0.0]])
print(F.binary_cross_entropy_with_logits(z, y, pos_weight=torch.tensor([3.0, 1.0])), F.binary_cross_entropy_with_logits(z, y, weight=torch.tensor([1.0, 0.0])))
per = F.mse_loss(z, y, reduction="none")
print(per, per.mean(), (per * torch.tensor([[1.0], [0.0]])).sum() / 2)
print(F.l1_loss(z, y), F.smooth_l1_loss(z, y, beta=0.5), F.huber_loss(z, y, delta=0.5), F.soft_margin_loss(z, y * 2 - 1))
probs = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
print(F.cross_entropy(logits[:2], probs), F.kl_div(F.log_softmax(logits[:2], 1), probs, reduction="batchmean"))
