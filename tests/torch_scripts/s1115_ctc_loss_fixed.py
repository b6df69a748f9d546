# CTC loss with fixed log-probabilities: reductions, zero_infinity, gradient
import torch
import torch.nn as nn
import torch.nn.functional as F

T, N, C = 5, 2, 4
logits = (torch.arange(T * N * C, dtype=torch.float64).view(T, N, C) % 7 - 3) / 2
logits.requires_grad_()
lp = logits.log_softmax(2)
targets = torch.tensor([[1, 2], [3, 3]])
il = torch.tensor([5, 4])
tl = torch.tensor([2, 2])
print(F.ctc_loss(lp, targets, il, tl), F.ctc_loss(lp, targets, il, tl, reduction="sum"), F.ctc_loss(lp, targets, il, tl, reduction="none"))
loss = nn.CTCLoss(blank=0, zero_infinity=True)(lp, targets, il, tl)
loss.backward()
print(loss, torch.round(logits.grad[:, 0], decimals=6))
print(F.ctc_loss(lp, torch.tensor([1, 2, 3, 3]), il, tl))
print(F.ctc_loss(lp, torch.tensor([[1, 1, 1, 1, 1], [2, 2, 2, 2, 2]]), torch.tensor([5, 5]), torch.tensor([5, 5]), reduction="none", zero_infinity=True))
