import torch
import torch.nn as nn
import torch.nn.functional as F

T, N, C = 6, 2, 4
logits = torch.sin(torch.arange(T * N * C, dtype=torch.float64) * 0.7).reshape(T, N, C)
logits.requires_grad_()
log_probs = logits.log_softmax(2)
targets = torch.tensor([[1, 2, 2], [3, 1, 0]])
input_lengths = torch.tensor([6, 5])
target_lengths = torch.tensor([3, 2])
ctc = nn.CTCLoss(blank=0, reduction="mean")
loss = ctc(log_probs, targets, input_lengths, target_lengths)
print(round(loss.item(), 6), loss.grad_fn.name())
loss.backward()
print(logits.grad[:, 0].round(decimals=5))
none = F.ctc_loss(log_probs.detach(), targets, input_lengths, target_lengths, reduction="none")
print(none.round(decimals=5))
flat = torch.tensor([1, 2, 2, 3, 1])
print(F.ctc_loss(log_probs.detach(), flat, input_lengths, target_lengths, reduction="sum").round(decimals=5))
