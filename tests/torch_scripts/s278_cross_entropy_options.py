import torch
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3], [-1.0, 3.0, 0.0]], requires_grad=True)
target = torch.tensor([0, 2, 1])
print(F.cross_entropy(logits, target).round(decimals=5))
print(F.cross_entropy(logits, target, label_smoothing=0.1).round(decimals=5))
print(F.cross_entropy(logits, target, reduction="none").round(decimals=5))
w = torch.tensor([1.0, 2.0, 0.5])
print(F.cross_entropy(logits, target, weight=w).round(decimals=5))
print(F.cross_entropy(logits, torch.tensor([0, -100, 1]), ignore_index=-100).round(decimals=5))
probs = torch.tensor([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.0, 1.0, 0.0]])
loss = F.cross_entropy(logits, probs)
print(loss.round(decimals=5))
loss.backward()
print(logits.grad.round(decimals=5))
print(F.nll_loss(F.log_softmax(logits.detach(), 1), target).round(decimals=5))
print(F.binary_cross_entropy_with_logits(torch.tensor([0.5, -1.0]), torch.tensor([1.0, 0.0]),
                                         pos_weight=torch.tensor([2.0, 2.0])).round(decimals=5))
