import torch
import torch.nn as nn

T, N, C, S = 6, 2, 4, 3
logits = torch.cos(torch.arange(T * N * C, dtype=torch.float64) * 0.7).reshape(T, N, C).requires_grad_()
log_probs = logits.log_softmax(2)
targets = torch.tensor([[1, 2, 2], [3, 1, 0]])
input_lengths = torch.tensor([6, 5])
target_lengths = torch.tensor([3, 2])
ctc = nn.CTCLoss(blank=0)
loss = ctc(log_probs, targets, input_lengths, target_lengths)
print(round(loss.item(), 6))
loss.backward()
print(logits.grad[0].round(decimals=5))
for red in ["none", "sum"]:
    l = nn.functional.ctc_loss(log_probs.detach(), targets, input_lengths, target_lengths, reduction=red)
    print(red, l.round(decimals=5))
flat = torch.tensor([1, 2, 2, 3, 1])
print(round(nn.functional.ctc_loss(log_probs.detach(), flat, input_lengths, target_lengths).item(), 6))
