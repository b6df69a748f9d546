import torch
import torch.nn as nn
import torch.nn.functional as F

student_logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, -0.3, 0.8]], requires_grad=True)
teacher_logits = torch.tensor([[1.2, 1.8, 0.2], [0.0, 0.0, 1.5]])
T = 2.0
soft_targets = F.softmax(teacher_logits / T, dim=-1)
log_probs = F.log_softmax(student_logits / T, dim=-1)
for red in ["batchmean", "sum", "mean", "none"]:
    print(red, F.kl_div(log_probs, soft_targets, reduction=red).detach().round(decimals=6))
loss = F.kl_div(log_probs, soft_targets, reduction="batchmean") * T * T
hard = F.cross_entropy(student_logits, torch.tensor([1, 2]), label_smoothing=0.1)
(0.7 * loss + 0.3 * hard).backward()
print(student_logits.grad.round(decimals=6))
print(nn.KLDivLoss(reduction="batchmean", log_target=True)(log_probs.detach(), F.log_softmax(teacher_logits / T, -1)).round(decimals=6))
print(F.cross_entropy(student_logits.detach(), soft_targets).round(decimals=6))
print(F.nll_loss(log_probs.detach(), torch.tensor([0, -100]), ignore_index=-100).round(decimals=6))
print(F.binary_cross_entropy(torch.tensor([0.2, 0.9]), torch.tensor([0.0, 1.0]), weight=torch.tensor([1.0, 2.0])).round(decimals=6))
