import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[50.0, -50.0, 0.0], [-3.0, 2.0, 0.5], [100.0, 0.0, -100.0]], requires_grad=True)
targets = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.3], [0.0, 1.0, 1.0]])
pos_weight = torch.tensor([1.0, 3.0, 0.5])
loss = F.binary_cross_entropy_with_logits(logits, targets, pos_weight=pos_weight, reduction="none")
print(loss.detach().round(decimals=5))
loss.mean().backward()
print(logits.grad.round(decimals=6))
w = torch.tensor([[1.0], [0.0], [2.0]])
crit = nn.BCEWithLogitsLoss(weight=w, pos_weight=pos_weight, reduction="sum")
print(crit(logits, targets).detach().round(decimals=4))
p = torch.sigmoid(logits.detach())
print(F.binary_cross_entropy(p, targets, reduction="none").round(decimals=4))
print(F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
pw_scalar = F.binary_cross_entropy_with_logits(torch.tensor([0.3, -0.2]), torch.tensor([1.0, 0.0]), pos_weight=torch.tensor(4.0))
print(pw_scalar.round(decimals=6))
sm = F.soft_margin_loss(torch.tensor([2.0, -1.0]), torch.tensor([1.0, 1.0]))
print(sm.round(decimals=6))
